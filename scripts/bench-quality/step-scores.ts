// Bytes and whole scores of one picture (a corpus path or a file) at each quality of a range, per
// encoder setting: where one quality step jumps past auto quality's landing window, and which knob
// lands inside it (perceptual-rules.ts, FINER_KNOBS). JPEG settings: 420 and 444 (mozjpeg's
// own table, MOZJPEG_TABLE), t0 to t8 (4:2:0 at that table), notrellis, nodering; WebP (effort 4): webp, webp-sharp
// (smartSubsample), webp-deblock (smartDeblock), webp-e0 to webp-e6 (that effort), and webp-<preset>
// (photo, picture, drawing, text).
//   CORPUS_DIR=... BENCH_STEP_SOURCE=img/exif-orientation/Portrait_0.jpg BENCH_STEP_QUALITIES=66-74 BENCH_STEP_SETTINGS=420,444,t5 node scripts/bench-quality/step-scores.ts
import fs from "node:fs";
import sharp, { type JpegOptions, type Sharp, type WebpOptions } from "sharp";
import { MOZJPEG_TABLE } from "../../origin/image/encode.ts";
import { rawRgb } from "../../origin/image/raw-rgb.ts";
import { perceptualScore } from "../../origin/quality/perceptual-score.ts";
import { corpusPath } from "../../test/support/corpus-dir.ts";
import { renderedSizes } from "./rendered-sizes.ts";

const SOURCE = process.env.BENCH_STEP_SOURCE ?? "img/exif-orientation/Portrait_0.jpg";
const SIZE = process.env.BENCH_QUALITY_SIZES ?? "original";
// "66-74" every quality of the range; "10-100/10" every tenth.
const [RANGE, STEP = "1"] = (process.env.BENCH_STEP_QUALITIES ?? "66-74").split("/") as [string, string?];
const [LOW, HIGH] = RANGE.split("-").map(Number) as [number, number];
const SETTINGS = (process.env.BENCH_STEP_SETTINGS ?? "420,444").split(",");

function jpegOptions(setting: string, quality: number): JpegOptions {
  const mozjpeg = { quality, chromaSubsampling: "4:2:0", optimiseCoding: true, trellisQuantisation: true, overshootDeringing: true, quantisationTable: MOZJPEG_TABLE };
  if (setting === "420") return mozjpeg;
  if (setting === "444") return { ...mozjpeg, chromaSubsampling: "4:4:4" };
  if (setting === "notrellis") return { ...mozjpeg, trellisQuantisation: false };
  if (setting === "nodering") return { ...mozjpeg, overshootDeringing: false };
  if (/^t[0-8]$/.test(setting)) return { ...mozjpeg, quantisationTable: Number(setting.slice(1)) };
  throw new Error(`unknown setting ${setting}`);
}

function webpOptions(setting: string, quality: number): WebpOptions {
  const plain = { quality, effort: 4 };
  if (setting === "webp") return plain;
  if (setting === "webp-sharp") return { ...plain, smartSubsample: true };
  if (setting === "webp-deblock") return { ...plain, smartDeblock: true };
  if (/^webp-e[0-6]$/.test(setting)) return { ...plain, effort: Number(setting.slice("webp-e".length)) };
  const preset = setting.slice("webp-".length);
  if (["photo", "picture", "drawing", "text"].includes(preset)) return { ...plain, preset: preset as WebpOptions["preset"] };
  throw new Error(`unknown setting ${setting}`);
}

function encoded(image: Sharp, setting: string, quality: number): Sharp {
  return setting.startsWith("webp") ? image.webp(webpOptions(setting, quality)) : image.jpeg(jpegOptions(setting, quality));
}

sharp.cache(false);
const input = new Uint8Array(fs.readFileSync(fs.existsSync(SOURCE) ? SOURCE : corpusPath(SOURCE)));
const size = (await renderedSizes(input)).find((rendered) => rendered.label === SIZE);
if (size === undefined) throw new Error(`${SOURCE} has no ${SIZE} size`);
const { reference } = size;
console.log(`${SOURCE} at ${SIZE}: ${reference.width}x${reference.height}; setting quality bytes score`);
for (const setting of SETTINGS) {
  for (let quality = LOW; quality <= HIGH; quality += Number(STEP)) {
    const bytes = await encoded(sharp(reference.data, { raw: { width: reference.width, height: reference.height, channels: 3 } }), setting, quality).toBuffer();
    const score = await perceptualScore(reference, await rawRgb(sharp(bytes), 3));
    console.log(`${setting.padEnd(9)} q${quality} ${String(bytes.byteLength).padStart(8)} ${score.toFixed(2)}`);
  }
}
process.exit(0);
