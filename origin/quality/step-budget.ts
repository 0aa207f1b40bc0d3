// A perceptual search's clock: it answers inside the call's deadline, so before each encode it
// checks that the step, costed from the steps it made, still fits with the answer's time kept in
// reserve. A busy machine gets a coarser answer, never a processing_timeout for work done.

/** A deadline and the clock it is read on (a test passes its own, which its encoder moves). */
export interface SearchBudget {
  deadlineAt: number;
  now: () => number;
}

/** What a step encodes: a probe of the sample, or the whole output. */
export type StepKind = "sample" | "whole";

/** Thrown by StepBudget when the next step does not fit before the deadline; the search answers what it has. */
export class OutOfTime extends Error {}

// Kept back from the deadline for what follows the search: framing and sending the answer.
const ANSWER_MARGIN_MS = 250;
// A whole output before the first is made is costed as the latest sample probe scaled by the
// pixels, and this much over, as a 4K photo measured on a loaded machine (scripts/bench-quality/README.md).
const UNMEASURED_WHOLE_FACTOR = 2;

/**
 * A probe is costed as the latest one (the first also pays the metric's preparation), a whole
 * output as the dearest so far, and until a whole output reaches the target the whole encode the
 * fallback would need stays in reserve.
 */
export class StepBudget {
  readonly #budget: SearchBudget | null;
  readonly #pixelRatio: number;
  #sampleMs = 0;
  #sampleEncodeMs = 0;
  #wholeMs: number | null = null;
  #wholeEncodeMs: number | null = null;

  /** `pixelRatio`: the image's pixels over the sample's. */
  constructor(budget: SearchBudget | null, pixelRatio: number) {
    this.#budget = budget;
    this.#pixelRatio = pixelRatio;
  }

  now(): number {
    return this.#budget?.now() ?? 0;
  }

  spent(of: StepKind, encodeMs: number, totalMs: number): void {
    if (of === "sample") {
      this.#sampleMs = totalMs;
      this.#sampleEncodeMs = encodeMs;
    } else {
      this.#wholeMs = Math.max(this.#wholeMs ?? 0, totalMs);
      this.#wholeEncodeMs = Math.max(this.#wholeEncodeMs ?? 0, encodeMs);
    }
  }

  /** Throws OutOfTime unless a step of this kind fits before the deadline, and, until an output reaches the target (`answered`), the fallback's encode after it. */
  check(of: StepKind, answered: boolean): void {
    if (this.#budget === null) return;
    const scaled = (ms: number) => ms * this.#pixelRatio * UNMEASURED_WHOLE_FACTOR;
    const cost = of === "sample" ? this.#sampleMs : (this.#wholeMs ?? scaled(this.#sampleMs));
    const reserve = answered ? 0 : (this.#wholeEncodeMs ?? scaled(this.#sampleEncodeMs));
    if (this.#budget.deadlineAt - this.#budget.now() <= cost + reserve + ANSWER_MARGIN_MS) throw new OutOfTime();
  }
}
