// Each step of auto:good's search per image, with where its time went: the counts and scores do
// not depend on the machine's load, the times do. For tuning the search without the whole bench.
// BENCH_QUALITY_FILES (comma-separated paths) adds pictures of no set, as /usr/share/backgrounds/gnome/wood-l.webp.
//   CORPUS_DIR=... BENCH_QUALITY_SETS=wallpapers BENCH_QUALITY_FORMATS=jpeg node scripts/bench-quality/search-steps.ts
import fs from "node:fs";
import sharp from "sharp";
import type { OutputChroma } from "../../contracts/image-options.ts";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { encode, type EncoderKnob } from "../../origin/image/encode.ts";
import { searchPerceptualQuality, type SearchStep } from "../../origin/image/perceptual-quality.ts";
import { corpusImages } from "./corpus-images.ts";
import { renderedSizes } from "./rendered-sizes.ts";
import { wallpaperImages } from "./wallpaper-images.ts";

const FORMATS = (process.env.BENCH_QUALITY_FORMATS ?? "jpeg,avif").split(",") as ("jpeg" | "webp" | "avif")[];
const SETS = (process.env.BENCH_QUALITY_SETS ?? "wallpapers").split(",");
const ONLY_SIZE = process.env.BENCH_QUALITY_SIZES ?? "1600";
const LIMIT = Number(process.env.BENCH_QUALITY_IMAGES ?? Infinity);
const FROM = Number(process.env.BENCH_QUALITY_FROM ?? 0);

sharp.cache(false);
const files = (process.env.BENCH_QUALITY_FILES ?? "").split(",").filter((file) => file !== "");
const fileImages = files.map((file) => ({ name: file, kind: "file", read: () => fs.promises.readFile(file).then((bytes) => new Uint8Array(bytes)) }));
const images = [...(SETS.includes("corpus") ? corpusImages() : []), ...(SETS.includes("wallpapers") ? wallpaperImages() : []), ...fileImages].slice(FROM, FROM + LIMIT);
const totals = new Map<string, { images: number; encodes: number; wholes: number; bytes: number; ratio: number[] }>();
for (const image of images) {
  const input = await image.read();
  for (const size of await renderedSizes(input)) {
    if (ONLY_SIZE !== "all" && size.label !== ONLY_SIZE) continue;
    const { reference } = size;
    const raw = () => sharp(reference.data, { raw: { width: reference.width, height: reference.height, channels: 3 } });
    for (const format of FORMATS) {
      const options = imageOptionsSchema.parse({ ...size.options, format, quality: "auto:good" });
      const q76Started = performance.now();
      await encode(raw(), { format, lossless: false, quality: 76 }, options);
      const q76Ms = performance.now() - q76Started;
      const steps: SearchStep[] = [];
      const started = performance.now();
      const found = await searchPerceptualQuality(raw(), (quality: number, chroma: OutputChroma, knob?: EncoderKnob) => encode(raw(), { format, lossless: false, quality, ...knob }, { ...options, chroma_subsampling: chroma }), {
        format,
        level: "good",
        encoder: options,
        onStep: (step) => steps.push(step),
      });
      const searchMs = performance.now() - started;
      const trail = steps.map((s) => `${{ whole: "W", draft: "D", sample: "s" }[s.of]}${s.chroma === "4:2:0" ? "" : s.chroma[0]}${s.finer === true ? "f" : ""}${s.quality}:${s.score.toFixed(1)}/${(s.encodeMs + s.decodeMs + s.scoreMs).toFixed(0)}`).join(" ");
      console.log(`${format} ${image.name.slice(-28).padEnd(28)} ${size.label.padEnd(8)} q${found.quality}${found.knob === undefined ? "" : ` ${JSON.stringify(found.knob)}`} ${found.score?.toFixed(2)} ${found.bytes.byteLength} enc ${found.encodes} ${(searchMs / q76Ms).toFixed(2)}x (${searchMs.toFixed(0)}/${q76Ms.toFixed(0)} ms) ${trail}`);
      const total = totals.get(format) ?? { images: 0, encodes: 0, wholes: 0, bytes: 0, ratio: [] };
      total.images++;
      total.encodes += found.encodes;
      total.wholes += steps.filter((s) => s.of === "whole").length;
      total.bytes += found.bytes.byteLength;
      total.ratio.push(searchMs / q76Ms);
      totals.set(format, total);
    }
  }
}
for (const [format, t] of totals) {
  const sorted = [...t.ratio].sort((a, b) => a - b);
  console.log(`${format}: ${t.images} images, encodes ${(t.encodes / t.images).toFixed(2)}, wholes ${t.wholes}, bytes ${t.bytes}, search/q76-encode median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} max ${sorted[sorted.length - 1]!.toFixed(2)}`);
}
process.exit(0);
