// The image side every SSIMULACRA 2 implementation here shares: whether a pair is judged over two
// pages, and the number of scales. (The kernels decode and halve rows for ssimulacra2.ts; the
// tests' streaming oracle keeps its own JavaScript for both.)
import type { RawImage } from "./raw-image.ts";
import { SCALES } from "./ssimulacra2-parameters.ts";

export function hasTransparency(image: RawImage): boolean {
  if (image.channels !== 4) return false;
  for (let i = 3; i < image.data.length; i += 4) if (image.data[i] !== 255) return true;
  return false;
}

export function scaleCount(width: number, height: number): number {
  let count = 1;
  for (let w = width, h = height; count < SCALES && w >= 8 && h >= 8; w = (w + 1) >> 1, h = (h + 1) >> 1) count++;
  return count;
}
