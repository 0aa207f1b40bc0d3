// How long the origin may work on one call, from its arrival (queueing included) to its answer.
// A deadline grows with the input's size up to a ceiling. Sizes a synchronous call may send are
// bounded by each route (PDF compress runs as a job from 10 MiB, xlsx from 200,000 cells), so a
// synchronous call's deadline stays well inside a client's patience (at most about 40 s) while
// a job's large input earns minutes. An image call's deadline grows with the pixels its pipeline
// works on too (the source's size brought down to the asked box, as shrink-on-load and the resize
// do), which the file's bytes say little about: two 4K wallpapers of 2-3 MB each ran past a
// deadline counted from their bytes on a busy machine. At its deadline a call is answered `processing_timeout`
// and not charged; the edge stops waiting a little after (ORIGIN_CALL_GRACE_MS).

export interface DeadlineRule {
  baseMs: number;
  perMiBMs: number;
  /** Per megapixel the pipeline works on, where the origin counts them (the edge cannot: it waits the ceiling). */
  perMegapixelMs?: number;
  maxMs: number;
}

export const ORIGIN_DEADLINES = {
  // Sync only, any size up to PDF_MAX_BYTES: linear in pages, so it never needs long.
  "/pdf/analyze": { baseMs: 20_000, perMiBMs: 100, maxMs: 40_000 },
  // Synchronous below 10 MiB (at most 40 s); a job of 200 MiB gets ten minutes.
  "/pdf/compress": { baseMs: 20_000, perMiBMs: 2_000, maxMs: 600_000 },
  // A 3840x2400 photo (9.2 MP) auto-searched whole earns about 34 s; the quality search answers inside it.
  "/image/process": { baseMs: 20_000, perMiBMs: 300, perMegapixelMs: 1_500, maxMs: 40_000 },
  "/image/transform": { baseMs: 15_000, perMiBMs: 200, maxMs: 30_000 },
  "/image/mezzanine": { baseMs: 15_000, perMiBMs: 200, maxMs: 30_000 },
  "/image/placeholder": { baseMs: 10_000, perMiBMs: 200, maxMs: 20_000 },
  // The body is the workbook's JSON; synchronous workbooks (200,000 cells) are a few MiB.
  "/xlsx/generate": { baseMs: 20_000, perMiBMs: 2_000, maxMs: 300_000 },
} as const satisfies Record<string, DeadlineRule>;

export type DeadlinePath = keyof typeof ORIGIN_DEADLINES;

/** What the edge waits beyond the origin's deadline for its answer (the network, a framed problem). */
export const ORIGIN_CALL_GRACE_MS = 5_000;

const MIB = 1024 * 1024;

export function isDeadlinePath(path: string): path is DeadlinePath {
  return Object.hasOwn(ORIGIN_DEADLINES, path);
}

/** The origin's deadline for a call to `path` with `inputBytes` of input, whose pipeline works on `megapixels` (0 when not counted). */
export function originDeadlineMs(path: DeadlinePath, inputBytes: number, megapixels = 0): number {
  const rule: DeadlineRule = ORIGIN_DEADLINES[path];
  const pixelsMs = Math.max(0, megapixels) * (rule.perMegapixelMs ?? 0);
  return Math.min(rule.maxMs, Math.round(rule.baseMs + (Math.max(0, inputBytes) / MIB) * rule.perMiBMs + pixelsMs));
}

/**
 * How long the edge waits for the origin's answer: the deadline for this size and the grace; the
 * ceiling when the size is unknown or the origin also counts pixels, which the edge does not decode.
 */
export function originCallTimeoutMs(path: DeadlinePath, inputBytes: number | null): number {
  const rule: DeadlineRule = ORIGIN_DEADLINES[path];
  const byBytes = inputBytes !== null && rule.perMegapixelMs === undefined;
  return (byBytes ? originDeadlineMs(path, inputBytes) : rule.maxMs) + ORIGIN_CALL_GRACE_MS;
}
