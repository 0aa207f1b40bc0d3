import { describe, expect, it } from "vitest";
import { judgeRssFlatness, type RssFlatnessInput } from "../scripts/soak/rss-flatness.ts";

const MB = 1024 * 1024;
const S = 1000;
const KINDS = ["image.optimize.sync", "pdf.compress.async", "xlsx.generate.sync"];

/** One RSS sample a second over [from, to) seconds, its size in MB given by `level(t)`. */
function samples(from: number, to: number, level: (t: number) => number) {
  return Array.from({ length: to - from }, (_, i) => ({ at: (from + i) * S, bytes: level(from + i) * MB }));
}

/** Every kind answered once in each of the first seconds of every life, then every 3 s. */
function answers(lives: { start: number; end: number }[]) {
  return lives.flatMap((life) =>
    Array.from({ length: Math.floor((Math.min(life.end, 300) - life.start) / 3) }, (_, i) => KINDS.map((op) => ({ op, at: (life.start + 1 + i * 3) * S }))).flat(),
  );
}

function input(overrides: Partial<RssFlatnessInput> & Pick<RssFlatnessInput, "samples">): RssFlatnessInput {
  const processLives = overrides.processLives ?? [{ start: 0, end: Infinity }];
  return { processLives, runStartedAt: 0, loadEndsAt: 300 * S, answers: answers(processLives.map((l) => ({ start: l.start / S, end: l.end / S }))), warmUpMs: 30 * S, windowMs: 30 * S, ...overrides };
}

// The PDF worker thread's heap grows for a few jobs and is dropped when the thread is replaced.
const sawtooth = (t: number) => 380 + (t % 12) * 10;

describe("origin RSS flatness", () => {
  it("calls a sawtooth around a steady level flat, though a single sample at a crest is over 25% above one at a trough", () => {
    const verdict = judgeRssFlatness(input({ samples: samples(0, 300, sawtooth) }));
    expect(sawtooth(299) / sawtooth(36)).toBeGreaterThan(1.25);
    expect(verdict.flat).toBe(true);
    expect(Math.abs(verdict.endMb - verdict.warmMb)).toBeLessThanOrEqual(10);
  });

  it("calls a steady climb of 20% after warm-up not flat", () => {
    const verdict = judgeRssFlatness(input({ samples: samples(0, 300, (t) => (t < 30 ? 380 : 380 * (1 + (0.2 * (t - 30)) / 270))) }));
    expect(verdict.flat).toBe(false);
    expect(verdict.endMb / verdict.warmMb).toBeGreaterThan(1.15);
  });

  it("judges the longest-serving process against itself, not a young process against an older one's level", () => {
    // Process 2 (40-250 s) leaks; process 3 restarts low, so its end is below process 2's warm level.
    const processLives = [
      { start: 0, end: 36 * S },
      { start: 40 * S, end: 250 * S },
      { start: 253 * S, end: Infinity },
    ];
    const verdict = judgeRssFlatness(input({ processLives, samples: [...samples(0, 36, () => 380), ...samples(40, 250, (t) => 380 + (t - 40)), ...samples(253, 300, () => 380)] }));
    expect(verdict.judged).toContain("origin process 2 of 3");
    expect(verdict.flat).toBe(false);
  });

  it("leaves out the samples after the load stopped", () => {
    const verdict = judgeRssFlatness(input({ samples: samples(0, 420, (t) => (t < 300 ? 380 : 600)) }));
    expect(verdict.flat).toBe(true);
    expect(verdict.endMb).toBe(380);
  });

  it("starts the warm level only once every kind of request has been answered by the process", () => {
    // The first PDF job is answered at 61 s; its thread lifts RSS from 300 to 380 MB.
    const late = input({ samples: samples(0, 300, (t) => (t < 60 ? 300 : 380)) });
    late.answers = late.answers.filter((a) => a.op !== "pdf.compress.async" || a.at > 60 * S);
    const verdict = judgeRssFlatness(late);
    expect(verdict.warmWindow).toMatch(/^61\.0-91\.0 s/);
    expect(verdict.flat).toBe(true);
  });

  it("does not wait for a kind of request rarer than three times per window, which may come late in every process's life", () => {
    // 17 async optimizes in 300 s (1.7 a window), each process's first one after its first 80 s.
    const processLives = [
      { start: 0, end: 132 * S },
      { start: 133 * S, end: 204 * S },
      { start: 205 * S, end: Infinity },
    ];
    const rare = input({ processLives, samples: samples(0, 300, () => 380) });
    for (const at of [85, 90, 95, 100, 105, 110, 115, 120, 125, 130, 214 + 80, 215 + 80, 216 + 80, 217 + 80, 218 + 80, 219 + 80, 200]) rare.answers.push({ op: "image.optimize.async", at: at * S });
    const verdict = judgeRssFlatness(rare);
    expect(verdict.judged).toContain("origin process 1 of 3");
    expect(verdict.warmWindow).toMatch(/^30\.0-60\.0 s/);
    expect(verdict.flat).toBe(true);
  });

  it("does not call memory flat when no process served long enough to judge", () => {
    const verdict = judgeRssFlatness(input({ processLives: [{ start: 0, end: 50 * S }, { start: 52 * S, end: 100 * S }], loadEndsAt: 100 * S, samples: samples(0, 100, () => 380) }));
    expect(verdict.flat).toBe(false);
    expect(verdict.judged).toMatch(/no origin process/);
  });
});
