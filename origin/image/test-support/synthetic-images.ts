// Generated test inputs: deterministic, so a failing test reproduces.
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { seededRandom } from "./seeded-random.ts";

/**
 * Gradients, value-noise texture at several scales (cells sized relative to
 * the image, so detail survives downscaling) and grain: compresses like a
 * photo at any output size, not like a flat graphic.
 */
export function photoLikePixels(width: number, height: number, seed = 1): Buffer {
  const uniform = seededRandom(seed);
  const random = () => (uniform() - 0.5) * 2;
  const octaves = [8, 40, 160, 500].map((cellsAcross, i) => ({
    lattice: valueLattice(cellsAcross + 2, Math.ceil((cellsAcross * height) / width) + 2, random),
    cell: width / cellsAcross,
    amplitude: [40, 28, 18, 10][i] ?? 0,
  }));
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let texture = 0;
      for (const octave of octaves) texture += octave.amplitude * sampleLattice(octave.lattice, x / octave.cell, y / octave.cell);
      const u = x / width;
      const v = y / height;
      const i = (y * width + x) * 3;
      data[i] = clampByte(50 + 140 * u + texture + 8 * random());
      data[i + 1] = clampByte(70 + 100 * v + 0.8 * texture + 8 * random());
      data[i + 2] = clampByte(170 - 90 * u * v - 0.6 * texture + 8 * random());
    }
  }
  return data;
}

interface Lattice {
  columns: number;
  values: Float64Array;
}

function valueLattice(columns: number, rows: number, random: () => number): Lattice {
  const values = new Float64Array(columns * rows);
  for (let i = 0; i < values.length; i++) values[i] = random();
  return { columns, values };
}

function sampleLattice({ columns, values }: Lattice, x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const at = (cx: number, cy: number) => values[cy * columns + cx] ?? 0;
  const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
  const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}


export async function photoLikeJpeg(width: number, height: number, quality = 92): Promise<Uint8Array> {
  const raw = photoLikePixels(width, height);
  return new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer());
}

/** A valid PNG whose IHDR claims width x height: the header of a decompression bomb. */
export function pngHeaderBomb(width: number, height: number): Uint8Array {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  // A few bytes of zlib data: a real bomb would inflate them to gigabytes.
  const idat = Buffer.from([0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]);
  return new Uint8Array(Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]));
}

export async function meanColour(bytes: Uint8Array | Buffer): Promise<number[]> {
  const stats = await sharp(bytes).removeAlpha().toColourspace("srgb").stats();
  return stats.channels.map((c) => c.mean);
}

/**
 * Mean absolute difference of two images compared at the same small size,
 * 0..255. Both are decoded at full size first: shrink-on-load differs between
 * decoders and would add differences that are not in the images.
 */
export async function pixelDistance(a: Uint8Array | Buffer, b: Uint8Array | Buffer, size = 64): Promise<number> {
  const render = async (bytes: Uint8Array | Buffer) => {
    const { data, info } = await sharp(bytes).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
    return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .resize(size, size, { fit: "fill" })
      .raw()
      .toBuffer();
  };
  const [pa, pb] = await Promise.all([render(a), render(b)]);
  let sum = 0;
  for (let i = 0; i < pa.length; i++) sum += Math.abs((pa[i] ?? 0) - (pb[i] ?? 0));
  return sum / pa.length;
}

function clampByte(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}
