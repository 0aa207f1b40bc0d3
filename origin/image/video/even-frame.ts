// H.264 in 4:2:0 takes only even sides: an odd side gains one more column or row, a copy of its
// last, which nobody sees (scaling would blur every pixel; cropping would lose one).
import type { FrameSize } from "./apng-stream.ts";

/** `rgb` (3 bytes a pixel) as it is, or with its last column and row repeated to make each side even when `even`. */
export function evenFrame(rgb: Uint8Array, size: FrameSize, even: boolean): { rgb: Uint8Array; size: FrameSize } {
  const width = even ? size.width + (size.width % 2) : size.width;
  const height = even ? size.height + (size.height % 2) : size.height;
  if (width === size.width && height === size.height) return { rgb, size };
  const out = new Uint8Array(width * height * 3);
  const stride = size.width * 3;
  for (let y = 0; y < height; y++) {
    const from = Math.min(y, size.height - 1) * stride;
    out.set(rgb.subarray(from, from + stride), y * width * 3);
    if (width > size.width) out.copyWithin((y * width + size.width) * 3, (y * width + size.width - 1) * 3, (y * width + size.width) * 3);
  }
  return { rgb: out, size: { width, height } };
}
