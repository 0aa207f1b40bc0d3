// Sizes what compress's encoder (rewrite-images.ts) would write without encoding large images whole:
// JPEG size is extrapolated from a mosaic of tiles spread over the image (JPEG
// codes 8x8 blocks independently, so bytes per pixel carry over); Flate from
// full-width bands of rows (PNG filters look one row up, deflate 32 KB back).
import { chooseEncoding } from "./encode-image.ts";
import { encodeFlate, encodeJpeg } from "./encode-pixels.ts";
import type { EncodedStream } from "./encode-pixels.ts";
import type { RawPixels } from "./raw-pixels.ts";
import { mosaicOf } from "../quality/sample-mosaic.ts";

export interface SizeEstimate {
  filter: EncodedStream["filter"];
  bytes: number;
}

const FULL_ENCODE_MAX_PIXELS = 500_000;
// 64 tiles of 64 px rather than 16 of 128 (the same pixels, spread wider): over the corpus
// images compress resizes past FULL_ENCODE_MAX_PIXELS, the mean |log error| against a full
// encode falls from 0.145 to 0.071 and the worst from 0.668 (a seal in one corner of a white
// page, which no large tile hit) to 0.270, for the same encoding time.
const TILE = 64;
const GRID = 8;
const BAND_ROWS = 48;
const BANDS = 6;

function bands(pixels: RawPixels): RawPixels {
  const { width, height, channels, data } = pixels;
  const rowBytes = width * channels;
  const out = new Uint8Array(BANDS * BAND_ROWS * rowBytes);
  for (let band = 0; band < BANDS; band++) {
    const y0 = Math.floor(((height - BAND_ROWS) * (band + 0.5)) / BANDS);
    out.set(data.subarray(y0 * rowBytes, (y0 + BAND_ROWS) * rowBytes), band * BAND_ROWS * rowBytes);
  }
  return { data: out, width, height: BANDS * BAND_ROWS, channels };
}

async function flateBytes(pixels: RawPixels): Promise<number> {
  const sample = bands(pixels);
  return Math.round(((await encodeFlate(sample)).bytes.byteLength * pixels.height) / sample.height);
}

async function jpegBytes(pixels: RawPixels, quality: number): Promise<number> {
  const tiny = await encodeJpeg({ data: new Uint8Array(16 * 16 * pixels.channels).fill(128), width: 16, height: 16, channels: pixels.channels }, quality);
  const overhead = tiny.bytes.byteLength;
  const sample = mosaicOf(pixels, TILE, GRID, GRID);
  const sampleBytes = (await encodeJpeg(sample, quality)).bytes.byteLength - overhead;
  return Math.round(overhead + (sampleBytes * pixels.width * pixels.height) / (sample.width * sample.height));
}

export async function estimateEncodedSize(pixels: RawPixels, lossyInput: boolean, quality: number): Promise<SizeEstimate> {
  const whole = pixels.width * pixels.height <= FULL_ENCODE_MAX_PIXELS || pixels.width < TILE * GRID || pixels.height < TILE * GRID;
  const jpeg = async (): Promise<SizeEstimate> => ({
    filter: "DCTDecode",
    bytes: whole ? (await encodeJpeg(pixels, quality)).bytes.byteLength : await jpegBytes(pixels, quality),
  });
  const flate = async (): Promise<SizeEstimate> => ({
    filter: "FlateDecode",
    bytes: whole || pixels.height < BANDS * BAND_ROWS * 2 ? (await encodeFlate(pixels)).bytes.byteLength : await flateBytes(pixels),
  });
  const choice = chooseEncoding(pixels, lossyInput);
  if (choice === "jpeg") return jpeg();
  if (choice === "flate") return flate();
  const [f, j] = await Promise.all([flate(), jpeg()]);
  return f.bytes <= j.bytes ? f : j;
}
