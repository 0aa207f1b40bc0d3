// Whether the origin's memory stayed flat under load, judged on one process against itself:
// - one process: the fault schedule restarts the origin, and a young process compared with an
//   older one's level would call a leak flat. The process judged is the one that served load longest.
// - under load only: samples after the workload stopped (the drain, nearly idle) are left out.
// - after warm-up: a process is warm once it has run `warmUpMs` and answered 2xx every kind of
//   request the workload sends steadily (the PDF thread, the xlsx writer and each codec start on
//   first use). Steadily: at least STEADY_PER_WINDOW times per window on average over the run, so
//   that a process sees each such kind within its first window about 95% of the time (1 - e^-3);
//   at once per window that was 63%, and a 5-minute run whose async optimizes (waiting for a free
//   job slot) came 17 times left no process judgeable. A rarer kind shares its engine with a
//   steady one (the async optimize with the sync).
// - levels, not samples: the PDF worker thread is replaced every few jobs, so RSS saws up and down
//   by tens of MB from one second to the next; a level is the median of a window of samples.

export interface RssSample {
  at: number;
  bytes: number;
}

export interface RssFlatnessInput {
  /** RSS of whichever origin process was running, sampled about once a second. */
  samples: RssSample[];
  /** Each origin process's life: from the run's start or a restart's end to the next kill (Infinity for the last). */
  processLives: { start: number; end: number }[];
  runStartedAt: number;
  /** When the workload stopped starting requests. */
  loadEndsAt: number;
  /** 2xx answers: when each ended and what kind of request it was. */
  answers: { op: string; at: number }[];
  warmUpMs: number;
  windowMs: number;
}

export interface RssVerdict {
  flat: boolean;
  warmMb: number;
  endMb: number;
  /** The judged process, its warm window and its end window, in seconds from the run's start. */
  judged: string;
  warmWindow: string;
  endWindow: string;
  rule: string;
}

/** The end level may be at most this much above the warm level. */
export const RSS_FLAT_TOLERANCE = 0.1;
const MIN_SAMPLES_PER_WINDOW = 3;
const STEADY_PER_WINDOW = 3;

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function judgeRssFlatness(input: RssFlatnessInput): RssVerdict {
  const seconds = (t: number) => ((t - input.runStartedAt) / 1000).toFixed(1);
  const span = (from: number, to: number) => `${seconds(from)}-${seconds(to)} s`;
  const rule =
    `flat when the end level is at most ${Math.round(RSS_FLAT_TOLERANCE * 100)}% above the warm level, on the longest-serving origin process, under load only; ` +
    `a level is the median of ${Math.round(input.windowMs / 1000)} s of 1 s RSS samples; warm = ${Math.round(input.warmUpMs / 1000)} s after the process started ` +
    `and every kind of request answered at least ${STEADY_PER_WINDOW} times per ${Math.round(input.windowMs / 1000)} s on average over the run answered 2xx by it; end = its last ${Math.round(input.windowMs / 1000)} s under load`;
  const answersByKind = new Map<string, number>();
  for (const answer of input.answers) answersByKind.set(answer.op, (answersByKind.get(answer.op) ?? 0) + 1);
  const steadyAnswers = (STEADY_PER_WINDOW * (input.loadEndsAt - input.runStartedAt)) / input.windowMs;
  const kinds = [...answersByKind].filter(([, count]) => count >= steadyAnswers).map(([op]) => op);
  const lives = input.processLives.map((life) => ({ start: life.start, end: Math.min(life.end, input.loadEndsAt) }));

  const candidates = lives.flatMap((life) => {
    const served = kinds.map((op) => input.answers.find((a) => a.op === op && a.at >= life.start && a.at < life.end)?.at);
    if (served.some((at) => at === undefined)) return [];
    const warmAt = Math.max(life.start + input.warmUpMs, ...(served as number[]));
    const endFrom = life.end - input.windowMs;
    if (warmAt + input.windowMs > endFrom) return [];
    const inWindow = (from: number, to: number) => input.samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.bytes);
    const warm = inWindow(warmAt, warmAt + input.windowMs);
    const end = inWindow(endFrom, life.end);
    if (warm.length < MIN_SAMPLES_PER_WINDOW || end.length < MIN_SAMPLES_PER_WINDOW) return [];
    return [{ life, warmAt, endFrom, warm, end }];
  });
  const judged = candidates.sort((a, b) => b.life.end - b.life.start - (a.life.end - a.life.start))[0];
  if (!judged) {
    return { flat: false, warmMb: 0, endMb: 0, judged: "no origin process served long enough under load to judge", warmWindow: "", endWindow: "", rule };
  }
  const warmLevel = median(judged.warm);
  const endLevel = median(judged.end);
  return {
    flat: endLevel <= warmLevel * (1 + RSS_FLAT_TOLERANCE),
    warmMb: mb(warmLevel),
    endMb: mb(endLevel),
    judged: `origin process ${lives.indexOf(judged.life) + 1} of ${lives.length}, under load ${span(judged.life.start, judged.life.end)}`,
    warmWindow: `${span(judged.warmAt, judged.warmAt + input.windowMs)} (${judged.warm.length} samples)`,
    endWindow: `${span(judged.endFrom, judged.life.end)} (${judged.end.length} samples)`,
    rule,
  };
}
