// An image grown to an exact byte size without changing a pixel: the padding sits where every
// decoder must read past it (a PNG ancillary chunk, JPEG comments before
// the scan, an unknown RIFF chunk in an extended WebP). For proving byte budgets, not pixel ones.
import { crc32 } from "../crypto/crc32.ts";
import { concatBytes } from "../../contracts/encoding/concat-bytes.ts";
import { readImageHeader } from "../edge-image/image-header.ts";

const ascii = (text: string) => new TextEncoder().encode(text);
const JPEG_SEGMENT_MAX = 2 + 0xffff;

/** A PNG chunk: length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.byteLength);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.byteLength);
  chunk.set(ascii(type), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.byteLength, crc32(chunk.subarray(4, 8 + data.byteLength)));
  return chunk;
}

// A private, safe-to-copy chunk just before IEND (the last 12 bytes).
function padPng(png: Uint8Array, extra: number): Uint8Array {
  const end = png.byteLength - 12;
  return concatBytes(png.subarray(0, end), pngChunk("prVt", new Uint8Array(extra - 12)), png.subarray(end));
}

// Comment segments (marker, two-byte length, at most 65533 bytes of text) just before the scan,
// so the frame header stays where a header read finds it.
function padJpeg(jpeg: Uint8Array, extra: number): Uint8Array {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  let scan = 2;
  while (jpeg[scan + 1] !== 0xda) scan += 2 + view.getUint16(scan + 2);
  const segments: Uint8Array[] = [];
  for (let left = extra; left > 0; ) {
    // Never leave less than an empty segment's four bytes for the last one.
    const size = left <= JPEG_SEGMENT_MAX ? left : Math.min(JPEG_SEGMENT_MAX, left - 4);
    const segment = new Uint8Array(size);
    segment.set([0xff, 0xfe, (size - 2) >> 8, (size - 2) & 0xff]);
    segments.push(segment);
    left -= size;
  }
  return concatBytes(jpeg.subarray(0, scan), ...segments, jpeg.subarray(scan));
}

function riffChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(8 + data.byteLength + (data.byteLength & 1));
  chunk.set(ascii(type));
  new DataView(chunk.buffer).setUint32(4, data.byteLength, true);
  chunk.set(data, 8);
  return chunk;
}

// A simple (VP8 or VP8L) WebP becomes an extended one, which may carry unknown chunks.
function padWebp(webp: Uint8Array, extra: number): Uint8Array {
  const header = readImageHeader(webp);
  if (header?.format !== "webp" || new TextDecoder().decode(webp.subarray(12, 16)) === "VP8X") throw new Error("padWebp takes a simple WebP");
  const vp8x = new Uint8Array(10);
  vp8x[0] = header.hasAlpha ? 0x10 : 0;
  for (const [at, value] of [[4, header.width - 1], [7, header.height - 1]] as const) vp8x.set([value & 0xff, (value >> 8) & 0xff, value >> 16], at);
  const extended = riffChunk("VP8X", vp8x);
  const padding = riffChunk("PADD", new Uint8Array(extra - extended.byteLength - 8));
  const body = concatBytes(ascii("WEBP"), extended, webp.subarray(12), padding);
  const riff = new Uint8Array(8);
  riff.set(ascii("RIFF"));
  new DataView(riff.buffer).setUint32(4, body.byteLength, true);
  return concatBytes(riff, body);
}

/** The same image, `totalBytes` long (even, for a WebP: RIFF chunks are). */
export function padImage(image: Uint8Array, totalBytes: number): Uint8Array {
  const extra = totalBytes - image.byteLength;
  const format = readImageHeader(image)?.format;
  if (extra < 64) throw new Error(`padImage needs at least 64 bytes to add, not ${extra}`);
  const padded = format === "png" ? padPng(image, extra) : format === "jpeg" ? padJpeg(image, extra) : format === "webp" ? padWebp(image, extra) : null;
  if (padded === null) throw new Error("padImage takes PNG, JPEG or WebP");
  if (padded.byteLength !== totalBytes) throw new Error(`padded to ${padded.byteLength}, not ${totalBytes}`);
  return padded;
}
