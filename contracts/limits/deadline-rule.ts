// How long the origin may work on one call, from its arrival (queueing included) to its answer:
// a deadline grows with the input's size up to a ceiling. Each operation declares the rule of every
// origin call it makes (contracts/operations.ts); deadlines.ts computes with them.

export interface DeadlineRule {
  baseMs: number;
  perMiBMs: number;
  /** Per megapixel the pipeline works on, where the origin counts them (the edge cannot: it waits the ceiling). */
  perMegapixelMs?: number;
  maxMs: number;
}
