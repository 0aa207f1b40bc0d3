// Arithmetic generic-region coding with template 0 and the nominal adaptive pixels
// (T.88 6.2.5.3), the inverse of the decoding procedure of 6.2.5.7. The 16-pixel
// context is three sliding windows over the two rows above and the current row.
import type { Bitmap } from "./bitmap.ts";
import { MqEncoder, newMqContexts } from "./mq-encoder.ts";
import type { MqContexts } from "./mq-encoder.ts";

/** Template 0's nominal adaptive pixels A1..A4 as (x, y) pairs, written into segment headers. */
export const TEMPLATE0_ADAPTIVE_PIXELS = [3, -1, -3, -1, 2, -2, -2, -2] as const;

export const TEMPLATE0_CONTEXTS = 1 << 16;

// The context T.88 6.2.5.7 assigns to the "same row as before" flag of typical prediction.
const TPGDON_CONTEXT = 0x9b25;

function rowsEqual(pixels: Uint8Array, width: number, y: number): boolean {
  const start = y * width;
  if (y === 0) {
    for (let x = 0; x < width; x++) if (pixels[start + x] !== 0) return false;
    return true;
  }
  const above = start - width;
  for (let x = 0; x < width; x++) if (pixels[start + x] !== pixels[above + x]) return false;
  return true;
}

/** Codes every pixel of bitmap into mq; contexts persist across calls, as a symbol dictionary's bitmaps need. */
export function encodeGenericPixels(mq: MqEncoder, contexts: MqContexts, bitmap: Bitmap, typicalPrediction: boolean): void {
  const { width, height, pixels } = bitmap;
  let previousTypical = 0;
  for (let y = 0; y < height; y++) {
    if (typicalPrediction) {
      const typical = rowsEqual(pixels, width, y) ? 1 : 0;
      mq.encode(contexts, TPGDON_CONTEXT, typical ^ previousTypical);
      previousTypical = typical;
      if (typical === 1) continue;
    }
    const row = y * width;
    const row1 = row - width;
    const row2 = row1 - width;
    const at1 = (x: number): number => (y >= 1 && x < width ? (pixels[row1 + x] as number) : 0);
    const at2 = (x: number): number => (y >= 2 && x < width ? (pixels[row2 + x] as number) : 0);
    // window2: row y-2, x-2..x+2 (bit 0 = x+2); window1: row y-1, x-3..x+3 (bit 0 = x+3); window0: row y, x-4..x-1 (bit 0 = x-1).
    let window2 = (at2(0) << 2) | (at2(1) << 1) | at2(2);
    let window1 = (at1(0) << 3) | (at1(1) << 2) | (at1(2) << 1) | at1(3);
    let window0 = 0;
    for (let x = 0; x < width; x++) {
      const pixel = pixels[row + x] as number;
      mq.encode(contexts, (window2 << 11) | (window1 << 4) | window0, pixel);
      window2 = ((window2 << 1) | at2(x + 3)) & 0x1f;
      window1 = ((window1 << 1) | at1(x + 4)) & 0x7f;
      window0 = ((window0 << 1) | pixel) & 0xf;
    }
  }
}

/** A whole generic region's arithmetic-coded data, template 0, with or without typical prediction. */
export function encodeGenericRegion(bitmap: Bitmap, typicalPrediction: boolean): Uint8Array {
  const mq = new MqEncoder();
  encodeGenericPixels(mq, newMqContexts(TEMPLATE0_CONTEXTS), bitmap, typicalPrediction);
  return mq.finish();
}
