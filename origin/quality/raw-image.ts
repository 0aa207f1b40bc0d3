/** Decoded 8-bit sRGB pixels, tightly packed; a fourth channel is alpha. */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3 | 4;
}
