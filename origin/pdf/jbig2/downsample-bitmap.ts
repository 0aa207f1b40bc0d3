// Brings a 1-bit image down to a lower resolution: each output pixel is ink when at least a
// third of the source pixels it covers are (a box filter, then a threshold). Subsampling
// breaks thin strokes into dots; a 50% threshold still drops a 3-pixel line at 4x wherever
// it straddles two output rows; a third keeps it, at the cost of slightly heavier strokes.
// Works a destination row at a time, so a 100 MP scan needs only row counters beside it.
import { packedStride } from "./bitmap.ts";
import type { PackedBitmap } from "./bitmap.ts";

const INK_SHARE_DENOMINATOR = 3;

export function downsampleBitmap(source: PackedBitmap, width: number, height: number): PackedBitmap {
  const sourceStride = packedStride(source.width);
  const stride = packedStride(width);
  const rows = new Uint8Array(stride * height);
  const ink = new Uint32Array(width);
  const total = new Uint32Array(width);
  // Which destination column each source column falls in: the same for every row.
  const column = new Uint32Array(source.width);
  for (let x = 0; x < source.width; x++) column[x] = Math.min(width - 1, Math.floor((x * width) / source.width));
  let sourceY = 0;
  for (let y = 0; y < height; y++) {
    ink.fill(0);
    total.fill(0);
    const end = y === height - 1 ? source.height : Math.floor(((y + 1) * source.height) / height);
    for (; sourceY < end; sourceY++) {
      const row = sourceY * sourceStride;
      for (let x = 0; x < source.width; x++) {
        const target = column[x] as number;
        total[target] = (total[target] as number) + 1;
        if (((source.rows[row + (x >> 3)] as number) & (0x80 >> (x & 7))) !== 0) ink[target] = (ink[target] as number) + 1;
      }
    }
    for (let x = 0; x < width; x++) {
      if ((ink[x] as number) * INK_SHARE_DENOMINATOR >= (total[x] as number) && (ink[x] as number) > 0) rows[y * stride + (x >> 3)] = (rows[y * stride + (x >> 3)] as number) | (0x80 >> (x & 7));
    }
  }
  return { width, height, rows };
}
