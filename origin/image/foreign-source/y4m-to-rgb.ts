// A y4m frame of 8-bit 4:2:0 YCbCr (what `heif-convert` writes for a phone's picture) as 8-bit RGB.
// Each chroma sample serves its 2x2 block of luma, as libheif's own 4:2:0 conversion does.
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import type { YcbcrMatrix } from "./heif-layout.ts";

export interface RgbPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3;
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

export function y4mToRgb(y4m: Uint8Array, matrix: YcbcrMatrix): RgbPixels {
  const { width, height, planes } = header(y4m);
  const chromaWidth = Math.ceil(width / 2);
  const chromaSize = chromaWidth * Math.ceil(height / 2);
  const lumaSize = width * height;
  if (y4m.byteLength < planes + lumaSize + 2 * chromaSize) throw malformed("the frame is short");
  const luma = y4m.subarray(planes, planes + lumaSize);
  const cb = y4m.subarray(planes + lumaSize, planes + lumaSize + chromaSize);
  const cr = y4m.subarray(planes + lumaSize + chromaSize, planes + lumaSize + 2 * chromaSize);
  const { kr, kb, fullRange } = matrix;
  const kg = 1 - kr - kb;
  const chromaScale = fullRange ? 1 : 255 / 224;
  const lumaOf = table((sample) => (fullRange ? sample : ((sample - 16) * 255) / 219));
  const crToR = table((sample) => 2 * (1 - kr) * chromaScale * (sample - 128));
  const cbToB = table((sample) => 2 * (1 - kb) * chromaScale * (sample - 128));
  const cbToG = table((sample) => ((2 * kb * (1 - kb)) / kg) * chromaScale * (sample - 128));
  const crToG = table((sample) => ((2 * kr * (1 - kr)) / kg) * chromaScale * (sample - 128));
  const data = new Uint8Array(lumaSize * 3);
  for (let y = 0; y < height; y++) {
    const chromaRow = (y >> 1) * chromaWidth;
    let at = y * width * 3;
    for (let x = 0; x < width; x++) {
      const l = lumaOf[luma[y * width + x]!]! + CLAMP_OFFSET;
      const u = cb[chromaRow + (x >> 1)]!;
      const v = cr[chromaRow + (x >> 1)]!;
      data[at++] = CLAMP[l + crToR[v]!]!;
      data[at++] = CLAMP[l - cbToG[u]! - crToG[v]!]!;
      data[at++] = CLAMP[l + cbToB[u]!]!;
    }
  }
  return { data, width, height, channels: 3 };
}
