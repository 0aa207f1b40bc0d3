// Decoders that hand back bare RGBA (libheif's, JPEG XL's) lose what the samples mean. The pixels
// go on to the pipeline as a lossless PNG that carries the source's ICC profile in an iCCP chunk,
// so the one colour rule (to-srgb.ts) treats them like any tagged image.
import { deflateSync } from "node:zlib";
import { pngChunk } from "../png-chunk.ts";
import sharp from "sharp";

const SIGNATURE_BYTES = 8;
const IHDR_CHUNK_BYTES = 4 + 4 + 13 + 4;

/** An iCCP chunk: a profile name, a zero, compression method 0 (zlib), the compressed profile. */
function iccpChunk(profile: Uint8Array): Uint8Array {
  const name = Buffer.from("icc\0\0", "latin1");
  return pngChunk("iCCP", Buffer.concat([name, deflateSync(profile)]));
}

export interface RgbaPixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  /** 4 (RGBA) unless said. */
  channels?: 3 | 4;
}

/**
 * Lossless PNG of 8-bit RGB(A) (alpha dropped when every pixel is opaque), tagged with `profile`
 * when given. `compressionLevel` 1 by default; 0 (stored) is a third of its time and half again
 * its bytes, for a caller to whom time matters more. `clockwise` turns the pixels first.
 */
export async function pngWithProfile(pixels: RgbaPixels, profile: Uint8Array | null, compressionLevel: 0 | 1 = 1, clockwise: 0 | 90 | 180 | 270 = 0): Promise<Uint8Array> {
  const { data, width, height, channels = 4 } = pixels;
  let opaque = true;
  for (let i = 3; channels === 4 && i < data.length; i += 4) {
    if (data[i] !== 255) {
      opaque = false;
      break;
    }
  }
  let image = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels } });
  if (channels === 4 && opaque) image = image.removeAlpha();
  if (clockwise !== 0) image = image.rotate(clockwise);
  // This PNG lives for one request; the pipeline decodes it at once.
  const png = new Uint8Array(await image.png({ compressionLevel }).toBuffer());
  if (!profile) return png;
  const afterHeader = SIGNATURE_BYTES + IHDR_CHUNK_BYTES;
  return Buffer.concat([png.subarray(0, afterHeader), iccpChunk(profile), png.subarray(afterHeader)]);
}
