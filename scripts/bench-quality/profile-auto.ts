// Where one q_auto transform's time goes: the request bench:cdn times (fox.png as a 1200 px JPEG
// q90, made 1100 px wide), its search run as transform-encode.ts runs it, each encode of the search
// timed by its onStep (encode, decode, score; the first whole score includes preparing the whole
// image's side of the metric), beside a q76 encode of the same pixels. Medians of BENCH_PROFILE_RUNS
// (default 3) per format, after one warm-up search that starts the score worker.
// BENCH_PROFILE_SOURCE (a corpus path) and BENCH_PROFILE_WIDTH profile another picture or size.
//   CORPUS_DIR=... node scripts/bench-quality/profile-auto.ts
import sharp from "sharp";
import type { OutputChroma } from "../../contracts/image-options.ts";
import { encode, type EncoderKnob } from "../../origin/image/encode.ts";
import { searchPerceptualQuality, type SearchStep } from "../../origin/image/perceptual-quality.ts";
import { TRANSFORM_ENCODING } from "../../origin/image/transform-encode.ts";
import { corpusPath } from "../../test/support/corpus-dir.ts";

const RUNS = Number(process.env.BENCH_PROFILE_RUNS ?? 3);
const WIDTH = Number(process.env.BENCH_PROFILE_WIDTH ?? 1100);
const SOURCE = process.env.BENCH_PROFILE_SOURCE ?? "img/avif/fox.png";

sharp.cache(false);
const source = await sharp(corpusPath(SOURCE)).resize({ width: Math.max(1200, WIDTH) }).jpeg({ quality: 90 }).toBuffer();

interface Profile {
  totalMs: number;
  q76Ms: number;
  steps: SearchStep[];
}

async function profile(format: "jpeg" | "webp", width: number): Promise<Profile> {
  const { data, info } = await sharp(source).resize({ width }).raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const rendered = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const fixedStarted = performance.now();
  await encode(rendered(), { format, lossless: false, quality: 76 }, TRANSFORM_ENCODING);
  const q76Ms = performance.now() - fixedStarted;
  const steps: SearchStep[] = [];
  const encodeAt = (quality: number, chroma: OutputChroma, knob?: EncoderKnob) => encode(rendered(), { format, lossless: false, quality, ...knob }, { ...TRANSFORM_ENCODING, chroma_subsampling: chroma });
  const started = performance.now();
  await searchPerceptualQuality(rendered(), encodeAt, { format, level: "good", encoder: TRANSFORM_ENCODING, onStep: (step) => steps.push(step) });
  return { totalMs: performance.now() - started, q76Ms, steps };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const ms = (value: number) => value.toFixed(0).padStart(6);

console.log(`q_auto (good) at ${WIDTH} px of a ${Math.max(1200, WIDTH)} px JPEG of ${SOURCE}; medians of ${RUNS} runs, wall ms`);
console.log(`${"format".padEnd(6)} ${"q76 enc".padStart(7)} ${"search".padStart(6)} | ${"sample n".padStart(8)} ${"enc".padStart(6)} ${"dec".padStart(6)} ${"score".padStart(6)} | ${"whole n".padStart(7)} ${"enc".padStart(6)} ${"dec".padStart(6)} ${"score 1".padStart(7)} ${"later".padStart(6)} | ${"other".padStart(6)}  whole outputs`);
for (const format of ["jpeg", "webp"] as const) {
  await profile(format, WIDTH - 100);
  const runs: Profile[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await profile(format, WIDTH - run));
  const of = (run: Profile, kind: SearchStep["of"]) => run.steps.filter((step) => step.of === kind);
  const field = (kind: SearchStep["of"], pick: (steps: SearchStep[]) => number) => median(runs.map((run) => pick(of(run, kind))));
  const other = median(runs.map((run) => run.totalMs - sum(run.steps.map((step) => step.encodeMs + step.decodeMs + step.scoreMs))));
  const wholes = runs.map((run) => of(run, "whole").map((step) => `q${step.quality} ${step.score.toFixed(1)}`).join(" > ")).join("; ");
  console.log(
    `${format.padEnd(6)} ${ms(median(runs.map((run) => run.q76Ms))).padStart(7)} ${ms(median(runs.map((run) => run.totalMs)))} | ${String(field("sample", (steps) => steps.length)).padStart(8)} ${ms(field("sample", (steps) => sum(steps.map((step) => step.encodeMs))))} ${ms(field("sample", (steps) => sum(steps.map((step) => step.decodeMs))))} ${ms(field("sample", (steps) => sum(steps.map((step) => step.scoreMs))))} | ${String(field("whole", (steps) => steps.length)).padStart(7)} ${ms(field("whole", (steps) => sum(steps.map((step) => step.encodeMs))))} ${ms(field("whole", (steps) => sum(steps.map((step) => step.decodeMs))))} ${ms(field("whole", (steps) => steps[0]?.scoreMs ?? 0)).padStart(7)} ${ms(field("whole", (steps) => sum(steps.slice(1).map((step) => step.scoreMs))))} | ${ms(other)}  ${wholes}`,
  );
}
process.exit(0);
