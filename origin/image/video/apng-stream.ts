// The frames handed to ffmpeg, as an animated PNG: lossless RGB, each frame with its own delay, so
// ffmpeg's APNG demuxer gives every frame the exact timestamp the source had (a raw or image-pipe
// input has one frame rate for all; its concat demuxer drops the last frame's duration). Written
// here, chunk by chunk, because libvips writes no APNG; nothing but ffmpeg reads it, from a
// temporary file, so zlib's fastest level: it shrinks animations' flat areas for little CPU.
import { deflateSync } from "node:zlib";
import { pngChunk } from "../png-chunk.ts";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// IHDR: 8 bits per sample, colour type 2 (RGB), deflate, adaptive filtering, no interlace.
const RGB_8BIT = [8, 2, 0, 0, 0];
// A frame's delay is a 16-bit fraction; milliseconds over 1000 fit every delay the video limits allow.
const DELAY_DENOMINATOR = 1000;
const MAX_DELAY_MS = 0xffff;

export interface FrameSize {
  width: number;
  height: number;
}

/** The signature, the image header and the animation control (`frames` frames, played once: the video sets no loop). */
export function apngStart({ width, height }: FrameSize, frames: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set(RGB_8BIT, 8);
  const control = Buffer.alloc(8);
  control.writeUInt32BE(frames, 0);
  return Buffer.concat([SIGNATURE, pngChunk("IHDR", header), pngChunk("acTL", control)]);
}

/**
 * Frame `index` (from 0): its control chunk and its pixels, `rgb` rows of 3 bytes a pixel, shown
 * for `delayMs`. Every frame covers the whole picture and replaces the last (no blending).
 */
export function apngFrame(index: number, rgb: Uint8Array, size: FrameSize, delayMs: number): Buffer {
  if (!(delayMs >= 0 && delayMs <= MAX_DELAY_MS)) throw new RangeError(`a frame delay of ${delayMs} ms does not fit an APNG frame`);
  // Sequence numbers count every fcTL and fdAT chunk; the first frame's pixels are the IDAT, which has none.
  const sequence = index === 0 ? 0 : index * 2 - 1;
  const control = Buffer.alloc(26);
  control.writeUInt32BE(sequence, 0);
  control.writeUInt32BE(size.width, 4);
  control.writeUInt32BE(size.height, 8);
  control.writeUInt16BE(Math.round(delayMs), 20);
  control.writeUInt16BE(DELAY_DENOMINATOR, 22);
  const stride = size.width * 3;
  const filtered = Buffer.alloc((stride + 1) * size.height);
  for (let y = 0; y < size.height; y++) filtered.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const pixels = deflateSync(filtered, { level: 1 });
  if (index === 0) return Buffer.concat([pngChunk("fcTL", control), pngChunk("IDAT", pixels)]);
  const numbered = Buffer.alloc(4);
  numbered.writeUInt32BE(sequence + 1, 0);
  return Buffer.concat([pngChunk("fcTL", control), pngChunk("fdAT", Buffer.concat([numbered, pixels]))]);
}

export const APNG_END = Buffer.from(pngChunk("IEND", new Uint8Array(0)));
