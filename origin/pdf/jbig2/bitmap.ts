// The two bitmap layouts of the encoder: packed 1-bit rows at its edges (what PDF
// streams and PBM files hold) and one byte per pixel inside, where context
// modelling and component labelling read single pixels. 1 is black everywhere.

/** Rows of ceil(width / 8) bytes, most significant bit first, 1 = black. */
export interface PackedBitmap {
  width: number;
  height: number;
  rows: Uint8Array;
}

/** One byte per pixel, 0 or 1, row after row. */
export interface Bitmap {
  width: number;
  height: number;
  pixels: Uint8Array;
}

export function packedStride(width: number): number {
  return (width + 7) >> 3;
}

export function unpackBitmap({ width, height, rows }: PackedBitmap): Bitmap {
  const stride = packedStride(width);
  if (rows.length < stride * height) throw new Error(`packed bitmap holds ${rows.length} bytes, ${width}x${height} needs ${stride * height}`);
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const rowStart = y * stride;
    const out = y * width;
    for (let x = 0; x < width; x++) pixels[out + x] = ((rows[rowStart + (x >> 3)] as number) >> (7 - (x & 7))) & 1;
  }
  return { width, height, pixels };
}

export function packBitmap({ width, height, pixels }: Bitmap): PackedBitmap {
  const stride = packedStride(width);
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const rowStart = y * stride;
    const from = y * width;
    for (let x = 0; x < width; x++) {
      if (pixels[from + x] === 1) rows[rowStart + (x >> 3)] = (rows[rowStart + (x >> 3)] as number) | (0x80 >> (x & 7));
    }
  }
  return { width, height, rows };
}
