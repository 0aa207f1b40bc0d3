// npm run bench:quality — the SSIMULACRA 2 metric of origin/quality, in one run:
// 1. validation: our score against calc-s2-rust's (npm, WASM) on hand-made distortions of
//    generated photos and, when CORPUS_DIR holds them, the corpus photos; and the order of each
//    distortion family (JPEG q90 > q70 > q40 > q20, blur and noise by amount);
// 2. on the corpus images, and on Debian's mate-backgrounds wallpapers it was never tuned on
//    (scripts/bench-quality/wallpaper-images.ts), per format, fixed q76 against
//    `quality: "auto:good"` through processImage, judged against issues #25's and #49's targets
//    (scripts/bench-quality/auto-versus-fixed.ts); BENCH_QUALITY_SETS=corpus or wallpapers one set;
// 3. CPU per megapixel at output size: one comparison against a prepared reference (what each
//    probe of a search after the first costs), the reference's preparation, and the first
//    implementation's whole pair (test-support/ssimulacra2-streaming.ts), against one sharp q76
//    JPEG encode of the same image, all in this process;
// 4. peak memory of a search's scores at 1600x1067 and at 12 MP (each in a child process of its
//    own, scripts/bench-quality/score-peak.ts).
// Exits non-zero when a score differs from calc-s2-rust's by more than 0.5, an order is wrong, or
// an auto:good output scores below the good target. The other targets (bytes, encodes, CPU) are
// printed as PASS or FAIL without failing the run.
// BENCH_QUALITY_SECTIONS=2,3 runs only the sections named (all four by default).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { imageOptionsSchema } from "../contracts/image-options.ts";
import { encode } from "../origin/image/encode.ts";
import { photoLikePixels } from "../origin/image/test-support/synthetic-images.ts";
import type { RawImage } from "../origin/quality/raw-image.ts";
import { prepareReference, scoreAgainst, ssimulacra2 } from "../origin/quality/ssimulacra2.ts";
import { streamingSsimulacra2 } from "../origin/quality/test-support/ssimulacra2-streaming.ts";
import { calcS2Rust } from "../origin/quality/test-support/calc-s2-rust.ts";
import { DISTORTIONS } from "../origin/quality/test-support/distortions.ts";
import { CORPUS_DIR } from "../test/support/corpus-dir.ts";
import { benchAutoVersusFixed } from "./bench-quality/auto-versus-fixed.ts";
import { corpusImages, corpusPhotoFiles, type CorpusImage } from "./bench-quality/corpus-images.ts";
import { WALLPAPER_PACKAGE, wallpaperImages } from "./bench-quality/wallpaper-images.ts";

const VALIDATION_WIDTH = 512;
const OUTPUT_WIDTH = 1600;
const MAX_DIFFERENCE = 0.5;
// Issue #49's target for one comparison against a prepared reference.
const MAX_COMPARE_MS_PER_MEGAPIXEL = 60;

interface NamedImage {
  name: string;
  load: (width: number) => Promise<RawImage>;
}

function generatedPhoto(seed: number): NamedImage {
  return {
    name: `generated photo ${seed}`,
    load: (width) => {
      const height = Math.round((width * 2) / 3);
      return Promise.resolve({ data: new Uint8Array(photoLikePixels(width, height, seed)), width, height, channels: 3 });
    },
  };
}

function corpusPhoto(photo: CorpusImage): NamedImage {
  return {
    name: photo.name,
    load: async (width) => {
      const { data, info } = await sharp(await photo.read())
        .autoOrient()
        .resize({ width, withoutEnlargement: true })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
    },
  };
}

function cpuMilliseconds<T>(run: () => T): { value: T; ms: number } {
  const started = process.cpuUsage();
  const value = run();
  const used = process.cpuUsage(started);
  return { value, ms: (used.user + used.system) / 1000 };
}

async function cpuMillisecondsAsync<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(started);
  return { value, ms: (used.user + used.system) / 1000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const pad = (value: string | number, width: number) => String(value).padStart(width);
const corpusPhotos = corpusPhotoFiles().map(corpusPhoto);
const images = [generatedPhoto(1), generatedPhoto(2), generatedPhoto(3), ...corpusPhotos];
if (corpusPhotos.length === 0) console.log(`(no corpus photos under ${CORPUS_DIR}: generated photos only)`);
const failures: string[] = [];
const sections = new Set((process.env.BENCH_QUALITY_SECTIONS ?? "1,2,3,4").split(",").map((section) => section.trim()));

if (sections.has("1")) await validateAgainstCalcS2();
if (sections.has("2")) await autoOnCorpus();
if (sections.has("3")) await metricCost();
if (sections.has("4")) peakMemory();

if (failures.length > 0) {
  console.error(`\nFAILED:\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(`\nAll validation checks of sections ${[...sections].sort().join(", ")} passed.`);

async function validateAgainstCalcS2(): Promise<void> {
  console.log(`\n1. Validation at ${VALIDATION_WIDTH} px wide: ours against calc-s2-rust 1.0.3, and order within each distortion family`);
  console.log(`${"image".padEnd(40)} ${"distortion".padEnd(10)} ${pad("ours", 8)} ${pad("calc-s2", 8)} ${pad("diff", 6)}`);
  let pairs = 0;
  let largestDifference = 0;
  for (const image of images) {
    const reference = await image.load(VALIDATION_WIDTH);
    const scores = new Map<string, number>();
    for (const distortion of DISTORTIONS) {
      const candidate = await distortion.apply(reference);
      const ours = ssimulacra2(reference, candidate);
      const theirs = calcS2Rust(reference, candidate);
      const difference = ours - theirs;
      pairs++;
      largestDifference = Math.max(largestDifference, Math.abs(difference));
      scores.set(distortion.name, ours);
      console.log(`${image.name.padEnd(40)} ${distortion.name.padEnd(10)} ${pad(ours.toFixed(2), 8)} ${pad(theirs.toFixed(2), 8)} ${pad(difference.toFixed(3), 6)}`);
      if (Math.abs(difference) > MAX_DIFFERENCE) failures.push(`${image.name} ${distortion.name}: ours ${ours.toFixed(2)}, calc-s2-rust ${theirs.toFixed(2)}`);
    }
    for (const family of ["jpeg", "blur", "noise"] as const) {
      const ordered = DISTORTIONS.filter((d) => d.family === family).sort((a, b) => a.severity - b.severity);
      for (let i = 1; i < ordered.length; i++) {
        const milder = ordered[i - 1]!.name;
        const harsher = ordered[i]!.name;
        if (!(scores.get(milder)! > scores.get(harsher)!)) failures.push(`${image.name}: ${milder} (${scores.get(milder)!.toFixed(2)}) does not score above ${harsher} (${scores.get(harsher)!.toFixed(2)})`);
      }
    }
  }
  console.log(`${pairs} distorted images; largest |ours - calc-s2-rust| = ${largestDifference.toFixed(3)} (limit ${MAX_DIFFERENCE})`);
}

async function autoOnCorpus(): Promise<void> {
  const sets = (process.env.BENCH_QUALITY_SETS ?? "corpus,wallpapers").split(",");
  if (sets.includes("corpus")) {
    const corpus = corpusImages();
    if (corpus.length === 0) console.log(`\n2. auto:good against q76 on the corpus: skipped, no corpus under ${CORPUS_DIR}`);
    else {
      console.log(`\n2. auto:good against fixed q76 on the corpus images (${OUTPUT_WIDTH} px wide and original size), per format`);
      failures.push(...(await benchAutoVersusFixed(corpus)));
    }
  }
  if (sets.includes("wallpapers")) {
    const wallpapers = wallpaperImages();
    if (wallpapers.length === 0) console.log(`\n2. auto:good against q76 on wallpapers: skipped, Debian's ${WALLPAPER_PACKAGE} is not installed (apt-get install ${WALLPAPER_PACKAGE})`);
    else {
      console.log(`\n2. auto:good against fixed q76 on Debian ${WALLPAPER_PACKAGE}'s nature photos, never tuned on (${OUTPUT_WIDTH} px wide and original size), per format`);
      failures.push(...(await benchAutoVersusFixed(wallpapers)));
    }
  }
}

async function metricCost(): Promise<void> {

  console.log(`\n3. CPU at output size (${OUTPUT_WIDTH} px wide, or the original when smaller), median of 3, this process`);
  console.log("   compare: one candidate against a prepared reference; prepare: the reference's side, once per search; streaming: the first implementation, one pair");
  console.log(`${"image".padEnd(40)} ${pad("size", 10)} ${pad("q76 ms", 8)} ${pad("compare", 8)} ${pad("ms/MP", 6)} ${pad("x enc", 6)} ${pad("prepare", 8)} ${pad("ms/MP", 6)} ${pad("stream", 7)} ${pad("ms/MP", 6)} ${pad("speedup", 7)}`);
  const encoderOptions = imageOptionsSchema.parse({});
  const perMegapixel: number[] = [];
  const preparePerMegapixel: number[] = [];
  const ratios: number[] = [];
  const speedups: number[] = [];
  for (const image of images) {
    const reference = await image.load(OUTPUT_WIDTH);
    const raw = { raw: { width: reference.width, height: reference.height, channels: reference.channels } } as const;
    const encodeOnce = () => encode(sharp(reference.data, raw), { format: "jpeg", lossless: false, quality: 76 }, encoderOptions);
    const jpeg = await encodeOnce();
    const encodeRuns: number[] = [];
    for (let i = 0; i < 3; i++) encodeRuns.push((await cpuMillisecondsAsync(encodeOnce)).ms);
    const encodeMs = median(encodeRuns);
    const decoded = await sharp(jpeg).raw().toBuffer();
    const candidate: RawImage = { ...reference, data: new Uint8Array(decoded) };
    const prepared = prepareReference(reference);
    const compareMs = median([0, 1, 2].map(() => cpuMilliseconds(() => scoreAgainst(prepared, candidate)).ms));
    const prepareMs = median([0, 1, 2].map(() => cpuMilliseconds(() => prepareReference(reference)).ms));
    const streamingMs = median([0, 1, 2].map(() => cpuMilliseconds(() => streamingSsimulacra2(reference, candidate)).ms));
    const megapixels = (reference.width * reference.height) / 1e6;
    perMegapixel.push(compareMs / megapixels);
    preparePerMegapixel.push(prepareMs / megapixels);
    ratios.push(compareMs / encodeMs);
    speedups.push(streamingMs / compareMs);
    console.log(
      `${image.name.padEnd(40)} ${pad(`${reference.width}x${reference.height}`, 10)} ${pad(encodeMs.toFixed(1), 8)} ${pad(compareMs.toFixed(0), 8)} ${pad((compareMs / megapixels).toFixed(0), 6)} ${pad((compareMs / encodeMs).toFixed(1), 6)} ${pad(prepareMs.toFixed(0), 8)} ${pad((prepareMs / megapixels).toFixed(0), 6)} ${pad(streamingMs.toFixed(0), 7)} ${pad((streamingMs / megapixels).toFixed(0), 6)} ${pad((streamingMs / compareMs).toFixed(2), 7)}`,
    );
  }
  console.log(
    `metric: median ${median(perMegapixel).toFixed(0)} ms CPU per megapixel per comparison (target ${MAX_COMPARE_MS_PER_MEGAPIXEL}: ${median(perMegapixel) <= MAX_COMPARE_MS_PER_MEGAPIXEL ? "PASS" : "FAIL"}), ${median(ratios).toFixed(1)}x one q76 encode; preparing the reference ${median(preparePerMegapixel).toFixed(0)} ms per megapixel; ${median(speedups).toFixed(2)}x faster than the streaming implementation in this process`,
  );
  const first = await images[0]!.load(OUTPUT_WIDTH);
  const firstCandidate = await DISTORTIONS[1]!.apply(first);
  const calcS2Cpu = cpuMilliseconds(() => calcS2Rust(first, firstCandidate)).ms;
  const firstMegapixels = (first.width * first.height) / 1e6;
  console.log(`calc-s2-rust on ${images[0]!.name} (${first.width}x${first.height}): ${calcS2Cpu.toFixed(0)} ms CPU, ${(calcS2Cpu / firstMegapixels).toFixed(0)} ms per megapixel`);
}

function peakMemory(): void {

  console.log("\n4. Peak memory of a search's scores: one reference prepared and kept, three candidates against it (child process: max RSS during the scores minus RSS with the inputs loaded)");
  for (const size of ["1600x1067", "4000x3000"]) {
    const child = spawnSync(process.execPath, [fileURLToPath(new URL("./bench-quality/score-peak.ts", import.meta.url)), size], { encoding: "utf8" });
    if (child.status !== 0) failures.push(`peak measurement at ${size} failed: ${child.stderr}`);
    console.log(child.stdout.trim());
  }
}
