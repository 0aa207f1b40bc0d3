// bench:quality section 4, run as its own process per size (`score-peak.ts 1600x1067`): the peak
// memory of a search's SSIMULACRA 2 scores: one prepared reference, kept, and three candidates
// scored against it. Its imports are only the metric and the pixels it needs, since
// a process's peak RSS counts everything it ever loaded: run inside bench-quality.ts, whose module
// graph brings in the image engine and mupdf's WASM, the same 1600x1067 score measured 383 MB
// above its inputs instead of the metric's own 13.
//
// The peak is the kernel's high-water mark of this process's own memory (VmHWM), not
// getrusage's maxRSS: Linux hands a child the parent's peak at fork and keeps it across exec, so
// maxRSS here read the bench process's peak (459-479 MB at 1600x1067) whatever the score used.
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { photoLikePixels } from "../../origin/image/test-support/synthetic-images.ts";
import type { RawImage } from "../../origin/quality/raw-image.ts";
import { prepareReference, scoreAgainst, ssimulacra2 } from "../../origin/quality/ssimulacra2.ts";

const [width, height] = (process.argv[2] ?? "").split("x").map(Number) as [number, number];
if (!(width > 0 && height > 0)) throw new RangeError(`usage: score-peak.ts <width>x<height>, not ${process.argv[2]}`);

const reference: RawImage = { data: new Uint8Array(photoLikePixels(width, height, 5)), width, height, channels: 3 };
const candidates: RawImage[] = [];
for (const quality of [60, 76, 90]) {
  const jpeg = await sharp(reference.data, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
  candidates.push({ ...reference, data: new Uint8Array(await sharp(jpeg).raw().toBuffer()) });
}
// Warm the compiler on a small pair so its code is not counted against the large one.
const small: RawImage = { data: new Uint8Array(photoLikePixels(96, 64, 9)), width: 96, height: 64, channels: 3 };
ssimulacra2(small, small);
const before = process.memoryUsage().rss;
const start = process.cpuUsage();
const prepared = prepareReference(reference);
const scores = candidates.map((candidate) => scoreAgainst(prepared, candidate));
const cpu = process.cpuUsage(start);
const ms = (cpu.user + cpu.system) / 1000;
const peak = peakResidentBytes();
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const inputs = reference.data.length + candidates.reduce((sum, candidate) => sum + candidate.data.length, 0);
console.log(
  `${width}x${height}: inputs ${megabytes(inputs)} MB; peak above them ${megabytes(Math.max(0, peak - before))} MB (${((peak - before) / (width * height)).toFixed(1)} bytes a pixel); reference kept ${megabytes(prepared.retainedBytes)} MB; scores ${scores.map((score) => score.toFixed(2)).join(", ")} in ${ms.toFixed(0)} ms CPU`,
);

/** This process's peak resident memory since exec, from /proc/self/status (Linux); getrusage's maxRSS elsewhere. */
function peakResidentBytes(): number {
  try {
    const line = readFileSync("/proc/self/status", "utf8").split("\n").find((entry) => entry.startsWith("VmHWM:"));
    if (line !== undefined) return Number(line.replace(/\D+/g, "")) * 1024;
  } catch {
    // Not Linux: getrusage's figure, which may include a parent's peak.
  }
  return process.resourceUsage().maxRSS * 1024;
}
