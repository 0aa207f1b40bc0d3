// Which image format a file holds, read from its first bytes as the service's decoder reads them
// (not from its name): a misnamed file gets the output its content calls for.
import { open } from "node:fs/promises";
import type { IMAGE_SOURCE_FORMATS } from "../contracts/origin/image-process.ts";

type SourceFormat = (typeof IMAGE_SOURCE_FORMATS)[number];

/** Bytes enough to tell every format apart, an AVIF's brands included. */
const SIGNATURE_BYTES = 32;

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

/** An ISO-BMFF `ftyp` box naming AVIF as its major or one of its compatible brands. */
function isAvif(bytes: Uint8Array): boolean {
  if (ascii(bytes, 4, 8) !== "ftyp") return false;
  const boxEnd = Math.min(bytes.length, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0));
  const brands = [ascii(bytes, 8, 12)];
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
  return brands.includes("avif") || brands.includes("avis");
}

export function imageFormatOf(header: Uint8Array): SourceFormat | undefined {
  if (startsWith(header, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(header, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (ascii(header, 0, 4) === "RIFF" && ascii(header, 8, 12) === "WEBP") return "webp";
  if (ascii(header, 0, 6) === "GIF87a" || ascii(header, 0, 6) === "GIF89a") return "gif";
  if (startsWith(header, [0x49, 0x49, 0x2a, 0x00]) || startsWith(header, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  if (header.length >= 12 && isAvif(header)) return "avif";
  return undefined;
}

/** The format of the image at `path`, from its first bytes; undefined when it is no image the service reads. */
export async function imageFormatOfFile(path: string): Promise<SourceFormat | undefined> {
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read(new Uint8Array(SIGNATURE_BYTES), 0, SIGNATURE_BYTES, 0);
    return imageFormatOf(buffer.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

/** Skips a run of GIF data sub-blocks starting at `at`; returns the offset after its terminator. */
function skipSubBlocks(bytes: Uint8Array, at: number): number {
  let offset = at;
  while (offset < bytes.length && bytes[offset] !== 0) offset += bytes[offset]! + 1;
  return offset + 1;
}

/** The size of a colour table a GIF packed-fields byte announces, 0 when it has none. */
const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** True when a GIF holds more than one image: the service keeps such a GIF animated. */
export function isAnimatedGif(bytes: Uint8Array): boolean {
  let offset = 13 + colourTableBytes(bytes[10] ?? 0);
  let images = 0;
  while (offset < bytes.length) {
    const block = bytes[offset];
    if (block === 0x21) offset = skipSubBlocks(bytes, offset + 2);
    else if (block === 0x2c) {
      if (++images > 1) return true;
      offset = skipSubBlocks(bytes, offset + 11 + colourTableBytes(bytes[offset + 9] ?? 0));
    } else return false;
  }
  return false;
}
