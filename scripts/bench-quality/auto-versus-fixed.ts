// bench:quality's auto section: per format (JPEG, WebP, AVIF), each image of a set (the corpus, or
// Debian wallpapers it was never tuned on) at 1600 px and at its original size through
// processImage, fixed quality 76 against `auto:good`. Each output is scored here in full against
// the service's own rendering; "stats" is the score auto reported.
// Judged per format against issues #25's and #49's targets: no output below the good target unless
// it reports target_met false; none above it by more than LANDING_LIMIT when met; no image where
// q76 clears the target by 3 and auto spends more bytes; total bytes against q76 at most 0.85 (JPEG)
// and 0.65 (AVIF), WebP reported; at most 4.5 encodes an image on average; auto's request time at
// most 2.5 times q76's, median, and at most 5 times on any image, end to end (wall time in this
// process, so the ratio is measured under the same load). Auto's extra CPU against one q76 encode
// is printed beside it. Each row is timed TIMED_ROUNDS times (QUICK_TIMED_ROUNDS when its auto
// request takes under QUICK_AUTO_MS), q76 and auto in turn, and its ratio is that of the medians:
// a request of 20 ms moved by a third between single runs. Even so, on a 2-core machine two runs of
// one tree read JPEG's median at 2.93 and 3.12: a median within about 0.2 of its target is not a
// verdict from one run.
// At equal quality (issue #25): each image is also encoded at a ladder of fixed qualities, and
// auto's total bytes are set against the one fixed quality per format whose worst-decile score
// equals auto's (equal-quality.ts): JPEG at most 0.80, WebP and AVIF at most 0.03 above the bound
// any per-image choice of quality could reach at the service's settings ("exact"). And the levels
// are checked with a second metric: butteraugli's distance of auto:good's and q76's outputs, per
// format, for images up to BUTTERAUGLI_MAX_PIXELS (the 2017 tool takes about 1.5 s of CPU a
// megapixel), when it is installed.
// BENCH_QUALITY_IMAGES=n takes the first n images of each set (from the BENCH_QUALITY_FROM-th,
// default 0, so a long run can be split between processes), BENCH_QUALITY_SIZES=1600|original one
// size, BENCH_QUALITY_FORMATS=webp,avif some formats.
import sharp from "sharp";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { QUALITY_LEVEL_TARGETS } from "../../contracts/perceptual-quality.ts";
import { encode } from "../../origin/image/encode.ts";
import { processImage } from "../../origin/image/process-image.ts";
import { searchKnob } from "../../origin/image/perceptual-rules.ts";
import type { RawImage } from "../../origin/quality/raw-image.ts";
import { ssimulacra2 } from "../../origin/quality/ssimulacra2.ts";
import { butteraugliAvailable, butteraugliDistance } from "./butteraugli.ts";
import type { CorpusImage } from "./corpus-images.ts";
import { worstDecile } from "./worst-decile.ts";
import { equalQuality, exactLandingRatio, fixedLadder, type LadderPoint } from "./equal-quality.ts";
import { renderedSizes } from "./rendered-sizes.ts";

const ALL_FORMATS = ["jpeg", "webp", "avif"] as const;
type LossyFormat = (typeof ALL_FORMATS)[number];
const FORMATS = ALL_FORMATS.filter((format) => (process.env.BENCH_QUALITY_FORMATS ?? ALL_FORMATS.join(",")).split(",").includes(format));
const MAX_BYTES_RATIO: Record<LossyFormat, number | null> = { jpeg: 0.85, webp: null, avif: 0.65 };
const MAX_MEAN_ENCODES = 4.5;
const MAX_TIME_RATIO = 2.5;
const MAX_IMAGE_TIME_RATIO = 5;
// An answer that met the target lands at most this far above it (issue #49).
const LANDING_LIMIT = 4;
// q76 clearing the target by this much leaves auto no excuse to spend more.
const DEFAULT_CLEARS_BY = 3;
const MAX_EQUAL_QUALITY_RATIO: Record<LossyFormat, { bound: "fixed" | "exact"; limit: number }> = {
  jpeg: { bound: "fixed", limit: 0.8 },
  webp: { bound: "exact", limit: 0.03 },
  avif: { bound: "exact", limit: 0.03 },
};
const BUTTERAUGLI_MAX_PIXELS = 2_100_000;
const QUICK_AUTO_MS = 1000;
const TIMED_ROUNDS = 3;
const QUICK_TIMED_ROUNDS = 5;

interface Row {
  image: string;
  size: string;
  pixels: string;
  format: LossyFormat;
  fixedBytes: number;
  fixedScore: number;
  autoBytes: number;
  autoScore: number;
  autoReportedScore: number | null;
  targetMet: boolean | null;
  autoQuality: number | null;
  chroma: string | null;
  /** Auto's wall time over q76's, same process. */
  timeRatio: number;
  encodes: number;
  /** Auto's processImage CPU minus fixed q76's, over one q76 encode's. */
  cpuRatio: number;
  searchMs: number;
  encodeMs: number;
  /** The image at the fixed qualities of FIXED_LADDER, for the equal-quality comparison. */
  ladder: LadderPoint[];
  /** The same ladder at auto's own encoder knob (JPEG's table 5); null where auto searches the fixed quality's settings. */
  autoLadder: LadderPoint[] | null;
  /** butteraugli distances of auto's and q76's outputs, null when not measured. */
  autoButteraugli: number | null;
  fixedButteraugli: number | null;
}

async function cpuMs<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; wallMs: number }> {
  const started = process.cpuUsage();
  const wall = performance.now();
  const value = await run();
  const used = process.cpuUsage(started);
  return { value, ms: (used.user + used.system) / 1000, wallMs: performance.now() - wall };
}

async function scoreAgainst(reference: RawImage, bytes: Uint8Array): Promise<number> {
  const decoded = await sharp(bytes).removeAlpha().raw().toBuffer();
  return ssimulacra2(reference, { ...reference, data: new Uint8Array(decoded) });
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

/** Prints the per-image table and the per-format verdicts; returns the correctness failures (an output below target). */
export async function benchAutoVersusFixed(set: CorpusImage[]): Promise<string[]> {
  // As origin/server.ts runs sharp: no operation cache, so the second processImage of an input
  // decodes it again as the first did.
  sharp.cache(false);
  const limit = Number(process.env.BENCH_QUALITY_IMAGES ?? Infinity);
  const from = Number(process.env.BENCH_QUALITY_FROM ?? 0);
  const onlySize = process.env.BENCH_QUALITY_SIZES ?? null;
  const images = set.slice(from, from + limit);
  const target = QUALITY_LEVEL_TARGETS.good;
  const rows: Row[] = [];
  const withButteraugli = butteraugliAvailable();
  if (!withButteraugli) console.log("butteraugli is not installed (apt-get install butteraugli): its columns stay empty");
  console.log(`${images.length} images${onlySize === null ? "" : `, size ${onlySize} only`}; good target ${target}`);
  await warmUp(images[0]);
  console.log(
    `${"image".padEnd(42)} ${"size".padEnd(8)} ${pad("pixels", 10)} ${"fmt".padEnd(4)} ${pad("q76 B", 9)} ${pad("score", 6)} ${pad("auto B", 9)} ${pad("score", 6)} ${pad("stats", 6)} met  ${pad("q", 3)} ${"chroma".padEnd(9)} ${pad("enc", 3)} ${pad("ratio", 6)} ${pad("srch ms", 7)} ${pad("enc ms", 6)} ${pad("xenc", 5)} ${pad("xtime", 5)} ${pad("BA q76", 6)} ${pad("BA auto", 7)}`,
  );
  for (const image of images) {
    const input = await image.read();
    for (const size of await renderedSizes(input)) {
      if (onlySize !== null && size.label !== onlySize) continue;
      const { reference } = size;
      const raw = { raw: { width: reference.width, height: reference.height, channels: reference.channels } } as const;
      for (const format of FORMATS) {
        const fixedOptions = imageOptionsSchema.parse({ ...size.options, format, quality: 76 });
        const knob = searchKnob(format, fixedOptions);
        const autoOptions = imageOptionsSchema.parse({ ...size.options, format, quality: "auto:good" });
        const fixed = await cpuMs(() => processImage(input, fixedOptions));
        const auto = await cpuMs(() => processImage(input, autoOptions));
        const fixedWalls = [fixed.wallMs];
        const autoWalls = [auto.wallMs];
        const rounds = auto.wallMs < QUICK_AUTO_MS ? QUICK_TIMED_ROUNDS : TIMED_ROUNDS;
        while (autoWalls.length < rounds) {
          fixedWalls.push((await cpuMs(() => processImage(input, fixedOptions))).wallMs);
          autoWalls.push((await cpuMs(() => processImage(input, autoOptions))).wallMs);
        }
        const oneEncode = await cpuMs(() => encode(sharp(reference.data, raw), { format, lossless: false, quality: 76 }, fixedOptions));
        const searchMs = Math.max(0, auto.ms - fixed.ms);
        const butteraugli = withButteraugli && reference.width * reference.height <= BUTTERAUGLI_MAX_PIXELS;
        const row: Row = {
          image: image.name,
          size: size.label,
          pixels: `${reference.width}x${reference.height}`,
          format,
          fixedBytes: fixed.value.bytes.byteLength,
          fixedScore: await scoreAgainst(reference, fixed.value.bytes),
          autoBytes: auto.value.bytes.byteLength,
          autoScore: await scoreAgainst(reference, auto.value.bytes),
          autoReportedScore: auto.value.stats.score,
          targetMet: auto.value.stats.target_met,
          autoQuality: auto.value.stats.quality,
          chroma: auto.value.stats.chroma_subsampling,
          timeRatio: median(autoWalls) / median(fixedWalls),
          encodes: auto.value.stats.encodes,
          cpuRatio: searchMs / oneEncode.ms,
          searchMs,
          encodeMs: oneEncode.ms,
          ladder: await fixedLadder(reference, format, { ...fixedOptions, strip_metadata: true }),
          autoLadder: knob === undefined ? null : await fixedLadder(reference, format, { ...fixedOptions, strip_metadata: true }, knob),
          autoButteraugli: butteraugli ? await butteraugliDistance(reference, auto.value.bytes) : null,
          fixedButteraugli: butteraugli ? await butteraugliDistance(reference, fixed.value.bytes) : null,
        };
        rows.push(row);
        console.log(
          `${row.image.padEnd(42)} ${row.size.padEnd(8)} ${pad(row.pixels, 10)} ${format.padEnd(4)} ${pad(row.fixedBytes, 9)} ${pad(row.fixedScore.toFixed(1), 6)} ${pad(row.autoBytes, 9)} ${pad(row.autoScore.toFixed(1), 6)} ${pad(row.autoReportedScore?.toFixed(1) ?? "-", 6)} ${row.targetMet === false ? "MISS" : "    "} ${pad(row.autoQuality ?? "-", 3)} ${(row.chroma ?? "-").padEnd(9)} ${pad(row.encodes, 3)} ${pad((row.autoBytes / row.fixedBytes).toFixed(2), 6)} ${pad(row.searchMs.toFixed(0), 7)} ${pad(row.encodeMs.toFixed(0), 6)} ${pad(row.cpuRatio.toFixed(1), 5)} ${pad(row.timeRatio.toFixed(1), 5)} ${pad(row.fixedButteraugli?.toFixed(2) ?? "-", 6)} ${pad(row.autoButteraugli?.toFixed(2) ?? "-", 7)}`,
        );
      }
    }
  }
  return printVerdicts(rows, target);
}

// The first auto search starts the score workers and compiles the metric; that one-off cost is
// not a search's, so one search per format runs before anything is measured.
async function warmUp(image: CorpusImage | undefined): Promise<void> {
  if (image === undefined) return;
  const input = await image.read();
  for (const format of FORMATS) await processImage(input, imageOptionsSchema.parse({ width: 256, format, quality: "auto:good" }));
}

function printVerdicts(rows: Row[], target: number): string[] {
  const failures: string[] = [];
  console.log(
    `\nPer format, auto:good against fixed q76 (targets: no output below ${target} unless target_met false; none met more than ${LANDING_LIMIT} above it; none where q76 clears it by ${DEFAULT_CLEARS_BY} and auto spends more; bytes <= ${FORMATS.map((f) => `${f} ${MAX_BYTES_RATIO[f] ?? "reported"}`).join(", ")} of q76; mean encodes <= ${MAX_MEAN_ENCODES}; request time <= ${MAX_TIME_RATIO}x q76's median, <= ${MAX_IMAGE_TIME_RATIO}x on every image)`,
  );
  console.log(`${"format".padEnd(6)} ${pad("images", 6)} ${pad("misses", 6)} ${pad("silent", 6)} ${pad("over", 4)} ${pad("overspend", 9)} ${pad("bytes", 6)} ${pad("encodes", 7)} ${pad("CPU x enc", 9)} ${pad("time x q76", 10)} ${pad("max", 5)} ${pad("|stats-fresh|", 13)}  verdicts`);
  for (const format of FORMATS) {
    const ofFormat = rows.filter((row) => row.format === format);
    if (ofFormat.length === 0) continue;
    const misses = ofFormat.filter((row) => row.targetMet === false);
    const silent = ofFormat.filter((row) => row.autoScore < target && row.targetMet !== false);
    const over = ofFormat.filter((row) => row.targetMet !== false && row.autoScore > target + LANDING_LIMIT);
    const overspend = ofFormat.filter((row) => row.fixedScore >= target + DEFAULT_CLEARS_BY && row.autoBytes > row.fixedBytes);
    const bytesRatio = sum(ofFormat.map((row) => row.autoBytes)) / sum(ofFormat.map((row) => row.fixedBytes));
    const meanEncodes = sum(ofFormat.map((row) => row.encodes)) / ofFormat.length;
    // Summed over images, so a large image weighs as its CPU does.
    const cpuRatio = sum(ofFormat.map((row) => row.searchMs)) / sum(ofFormat.map((row) => row.encodeMs));
    const medianTime = median(ofFormat.map((row) => row.timeRatio));
    const maxTime = Math.max(...ofFormat.map((row) => row.timeRatio));
    const honesty = Math.max(...ofFormat.map((row) => Math.abs((row.autoReportedScore ?? Number.NaN) - row.autoScore)));
    const bytesTarget = MAX_BYTES_RATIO[format];
    console.log(
      `${format.padEnd(6)} ${pad(ofFormat.length, 6)} ${pad(misses.length, 6)} ${pad(silent.length, 6)} ${pad(over.length, 4)} ${pad(overspend.length, 9)} ${pad(bytesRatio.toFixed(3), 6)} ${pad(meanEncodes.toFixed(2), 7)} ${pad(cpuRatio.toFixed(2), 9)} ${pad(medianTime.toFixed(2), 10)} ${pad(maxTime.toFixed(2), 5)} ${pad(honesty.toFixed(4), 13)}  ` +
        `floor ${verdict(silent.length === 0)}, landing ${verdict(over.length === 0)}, default ${verdict(overspend.length === 0)}, bytes ${bytesTarget === null ? "reported" : verdict(bytesRatio <= bytesTarget)}, encodes ${verdict(meanEncodes <= MAX_MEAN_ENCODES)}, time ${verdict(medianTime <= MAX_TIME_RATIO)} median ${verdict(maxTime <= MAX_IMAGE_TIME_RATIO)} max`,
    );
    for (const row of over) console.log(`  ${format} ${row.image} at ${row.size}: scored ${row.autoScore.toFixed(2)}, ${(row.autoScore - target).toFixed(2)} above the target, at q${row.autoQuality} ${row.chroma}`);
    for (const row of silent) failures.push(`${format} ${row.image} at ${row.size}: auto:good scored ${row.autoScore.toFixed(2)} < ${target} (quality ${row.autoQuality}) without target_met false`);
    for (const row of overspend) failures.push(`${format} ${row.image} at ${row.size}: q76 scored ${row.fixedScore.toFixed(2)}, auto spent ${row.autoBytes} > ${row.fixedBytes} bytes`);
  }
  printEqualQuality(rows);
  printButteraugli(rows);
  return failures;
}

const verdict = (pass: boolean) => (pass ? "PASS" : "FAIL");

function printEqualQuality(rows: Row[]): void {
  const targets = FORMATS.map((format) => {
    const { bound, limit } = MAX_EQUAL_QUALITY_RATIO[format];
    return bound === "fixed" ? `${format} <= ${limit}` : `${format} <= exact + ${limit}`;
  });
  console.log(`\nPer format, auto:good against the fixed quality with the same worst-decile score (targets: bytes ${targets.join(", ")})`);
  // "exact": every image at the quality (4:2:0, interpolated on its ladder) that reaches the target
  // exactly, against the fixed quality with that worst decile: what any per-image choice of quality
  // alone could reach at that chroma, the bound the ratio is read against; "exact auto" the same
  // with each image landed on the ladder at auto's own knob (JPEG's table 5), "-" where it has none.
  console.log(`${"format".padEnd(6)} ${pad("auto worst decile", 17)} ${pad("equal q", 7)} ${pad("fixed B", 10)} ${pad("auto B", 10)} ${pad("ratio", 6)} ${pad("exact", 6)} ${pad("exact auto", 10)}  verdict`);
  for (const format of FORMATS) {
    const ofFormat = rows.filter((row) => row.format === format);
    if (ofFormat.length === 0) continue;
    const ladders = ofFormat.map((row) => row.ladder);
    const equal = equalQuality(
      ladders,
      ofFormat.map((row) => row.autoScore),
    );
    const autoBytes = sum(ofFormat.map((row) => row.autoBytes));
    const exact = exactLandingRatio(ladders, QUALITY_LEVEL_TARGETS.good);
    const autoLadders = ofFormat.map((row) => row.autoLadder);
    const exactAuto = autoLadders.every((ladder) => ladder !== null) ? exactLandingRatio(ladders, QUALITY_LEVEL_TARGETS.good, autoLadders) : null;
    const exactColumn = `${pad(exact === null ? "-" : exact.toFixed(3), 6)} ${pad(exactAuto === null ? "-" : exactAuto.toFixed(3), 10)}`;
    if (equal.quality === null || equal.fixedBytes === null) {
      console.log(`${format.padEnd(6)} ${pad(equal.autoWorstDecile.toFixed(1), 17)} ${pad("> 100", 7)} ${pad("-", 10)} ${pad(autoBytes, 10)} ${pad("-", 6)} ${exactColumn}  PASS (no fixed quality reaches it)`);
      continue;
    }
    const ratio = autoBytes / equal.fixedBytes;
    const { bound, limit } = MAX_EQUAL_QUALITY_RATIO[format];
    const allowed = bound === "fixed" ? limit : exact === null ? Number.NaN : exact + limit;
    // At the ladder's floor the fixed quality could go lower still: the ratio is then a lower bound.
    const floor = equal.atLadderFloor ? "<=" : "";
    console.log(
      `${format.padEnd(6)} ${pad(equal.autoWorstDecile.toFixed(1), 17)} ${pad(floor + equal.quality.toFixed(1), 7)} ${pad(Math.round(equal.fixedBytes), 10)} ${pad(autoBytes, 10)} ${pad((equal.atLadderFloor ? ">=" : "") + ratio.toFixed(3), 6)} ${exactColumn}  ${verdict(ratio <= allowed && !equal.atLadderFloor)} (<= ${allowed.toFixed(3)})`,
    );
  }
}

// A level means the same in every format when its outputs' distances to the reference, in a
// metric it was not calibrated on, are about the same in every format.
function printButteraugli(rows: Row[]): void {
  const measured = rows.filter((row) => row.autoButteraugli !== null && row.fixedButteraugli !== null);
  if (measured.length === 0) return;
  console.log(`\nbutteraugli distance per format (lower is better; the worst decile is the 90th percentile), outputs up to ${(BUTTERAUGLI_MAX_PIXELS / 1e6).toFixed(1)} MP`);
  console.log(`${"format".padEnd(6)} ${pad("images", 6)} ${pad("q76 median", 10)} ${pad("q76 worst 10%", 13)} ${pad("auto median", 11)} ${pad("auto worst 10%", 14)}`);
  for (const format of FORMATS) {
    const ofFormat = measured.filter((row) => row.format === format);
    if (ofFormat.length === 0) continue;
    const fixed = ofFormat.map((row) => row.fixedButteraugli!);
    const auto = ofFormat.map((row) => row.autoButteraugli!);
    // The worst decile of a distance is its highest tenth: the worst decile of the negated values.
    const worst = (values: number[]) => -worstDecile(values.map((value) => -value));
    console.log(
      `${format.padEnd(6)} ${pad(ofFormat.length, 6)} ${pad(median(fixed).toFixed(2), 10)} ${pad(worst(fixed).toFixed(2), 13)} ${pad(median(auto).toFixed(2), 11)} ${pad(worst(auto).toFixed(2), 14)}`,
    );
  }
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
