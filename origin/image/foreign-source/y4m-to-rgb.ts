// 8-bit 4:2:0 YCbCr (what `heif-convert` writes for a phone's picture as y4m) as 8-bit RGB.
// Each chroma sample serves its 2x2 block of luma, as libheif's own 4:2:0 conversion does.
// At half size (a HEIC decoded for an output at most half its size) each chroma sample serves one
// pixel, its block of luma averaged.
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import type { YcbcrMatrix } from "./heif-layout.ts";

/** One 8-bit 4:2:0 frame's planes; a row of each starts every `stride` samples (at least its width). */
export interface YcbcrFrame {
  width: number;
  height: number;
  luma: Uint8Array;
  lumaStride: number;
  cb: Uint8Array;
  cr: Uint8Array;
  chromaStride: number;
}

const NEWLINE = 0x0a;

function malformed(why: string): ProblemError {
  return new ProblemError("image_unreadable", `The HEIC decoder's output cannot be read: ${why}.`);
}

function header(y4m: Uint8Array): { width: number; height: number; planes: number } {
  const lineEnd = y4m.indexOf(NEWLINE);
  const frameEnd = lineEnd < 0 ? -1 : y4m.indexOf(NEWLINE, lineEnd + 1);
  if (frameEnd < 0) throw malformed("no frame");
  const fields = Buffer.from(y4m.subarray(0, lineEnd)).toString("latin1").split(" ");
  const field = (tag: string) => fields.find((value) => value.startsWith(tag))?.slice(1);
  const width = Number(field("W"));
  const height = Number(field("H"));
  const colourSpace = field("C") ?? "420jpeg";
  if (fields[0] !== "YUV4MPEG2" || !(width > 0) || !(height > 0)) throw malformed("not a y4m stream");
  if (!/^420(jpeg|paldv|mpeg2)?$/.test(colourSpace)) throw malformed(`colour space ${colourSpace}`);
  return { width, height, planes: frameEnd + 1 };
}

/** One entry per sample value: a 256-entry table, so the per-pixel loop only adds and looks up. */
function table(of: (sample: number) => number): Int16Array {
  return Int16Array.from({ length: 256 }, (_, sample) => Math.round(of(sample)));
}

// Sums land in [-360, 615]; the clamp table is read at sum + CLAMP_OFFSET.
const CLAMP_OFFSET = 512;
const CLAMP = Uint8Array.from({ length: 1536 }, (_, i) => Math.min(255, Math.max(0, i - CLAMP_OFFSET)));

export function y4mFrame(y4m: Uint8Array): YcbcrFrame {
  const { width, height, planes } = header(y4m);
  const chromaWidth = Math.ceil(width / 2);
  const chromaSize = chromaWidth * Math.ceil(height / 2);
  const lumaSize = width * height;
  if (y4m.byteLength < planes + lumaSize + 2 * chromaSize) throw malformed("the frame is short");
  return {
    width,
    height,
    luma: y4m.subarray(planes, planes + lumaSize),
    lumaStride: width,
    chromaStride: chromaWidth,
    cb: y4m.subarray(planes + lumaSize, planes + lumaSize + chromaSize),
    cr: y4m.subarray(planes + lumaSize + chromaSize, planes + lumaSize + 2 * chromaSize),
  };
}

/** The matrix as lookup tables: a luma sample's part, and each chroma sample's part in R, G and B. */
function conversion(matrix: YcbcrMatrix) {
  const { kr, kb, fullRange } = matrix;
  const kg = 1 - kr - kb;
  const chromaScale = fullRange ? 1 : 255 / 224;
  return {
    lumaOf: table((sample) => (fullRange ? sample : ((sample - 16) * 255) / 219) + CLAMP_OFFSET),
    crToR: table((sample) => 2 * (1 - kr) * chromaScale * (sample - 128)),
    cbToB: table((sample) => 2 * (1 - kb) * chromaScale * (sample - 128)),
    cbToG: table((sample) => ((2 * kb * (1 - kb)) / kg) * chromaScale * (sample - 128)),
    crToG: table((sample) => ((2 * kr * (1 - kr)) / kg) * chromaScale * (sample - 128)),
  };
}

/**
 * The frame as RGB into `rgb` (`width * height * 3` samples). It walks the 2x2 blocks a chroma
 * sample serves, so each chroma pair is looked up once for its four pixels: half the time of a
 * pixel-by-pixel walk, which was as long as the whole pipeline after the decode.
 */
export function ycbcrToRgb(frame: YcbcrFrame, matrix: YcbcrMatrix, rgb: Uint8Array): void {
  const { width, height, luma, lumaStride, cb, cr, chromaStride } = frame;
  if (rgb.byteLength < width * height * 3) throw new RangeError(`${rgb.byteLength} bytes cannot hold ${width}x${height} RGB`);
  const { lumaOf, crToR, cbToB, cbToG, crToG } = conversion(matrix);
  const put = (sample: number, pixel: number, toR: number, toG: number, toB: number) => {
    const l = lumaOf[luma[sample]!]!;
    const at = pixel * 3;
    rgb[at] = CLAMP[l + toR]!;
    rgb[at + 1] = CLAMP[l + toG]!;
    rgb[at + 2] = CLAMP[l + toB]!;
  };
  for (let y = 0; y < height; y += 2) {
    const chromaRow = (y >> 1) * chromaStride;
    const below = y + 1 < height;
    for (let x = 0; x < width; x += 2) {
      const u = cb[chromaRow + (x >> 1)]!;
      const v = cr[chromaRow + (x >> 1)]!;
      const toR = crToR[v]!;
      const toG = -cbToG[u]! - crToG[v]!;
      const toB = cbToB[u]!;
      const sample = y * lumaStride + x;
      const pixel = y * width + x;
      const right = x + 1 < width;
      put(sample, pixel, toR, toG, toB);
      if (right) put(sample + 1, pixel + 1, toR, toG, toB);
      if (below) put(sample + lumaStride, pixel + width, toR, toG, toB);
      if (below && right) put(sample + lumaStride + 1, pixel + width + 1, toR, toG, toB);
    }
  }
}

/** The size of a frame converted by ycbcrToRgbHalved: one pixel per chroma sample. */
export function halvedSize(frame: Pick<YcbcrFrame, "width" | "height">): { width: number; height: number } {
  return { width: Math.ceil(frame.width / 2), height: Math.ceil(frame.height / 2) };
}

/**
 * The frame at half its size as RGB into `rgb` (halvedSize's pixels): each 2x2 block of luma
 * averaged, with the chroma sample that serves it, so chroma needs no upsampling and a quarter of
 * the pixels are converted. A block cut by an odd edge averages the samples it has.
 */
export function ycbcrToRgbHalved(frame: YcbcrFrame, matrix: YcbcrMatrix, rgb: Uint8Array): void {
  const { width, height, luma, lumaStride, cb, cr, chromaStride } = frame;
  const out = halvedSize(frame);
  if (rgb.byteLength < out.width * out.height * 3) throw new RangeError(`${rgb.byteLength} bytes cannot hold ${out.width}x${out.height} RGB`);
  const { lumaOf, crToR, cbToB, cbToG, crToG } = conversion(matrix);
  let at = 0;
  for (let row = 0; row < out.height; row++) {
    const top = 2 * row * lumaStride;
    const bottom = 2 * row + 1 < height ? top + lumaStride : top;
    const chromaRow = row * chromaStride;
    for (let column = 0; column < out.width; column++) {
      const left = 2 * column;
      const right = left + 1 < width ? left + 1 : left;
      const l = lumaOf[(luma[top + left]! + luma[top + right]! + luma[bottom + left]! + luma[bottom + right]! + 2) >> 2]!;
      const u = cb[chromaRow + column]!;
      const v = cr[chromaRow + column]!;
      rgb[at++] = CLAMP[l + crToR[v]!]!;
      rgb[at++] = CLAMP[l - cbToG[u]! - crToG[v]!]!;
      rgb[at++] = CLAMP[l + cbToB[u]!]!;
    }
  }
}
