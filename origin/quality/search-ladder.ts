// The qualities a perceptual search probes, and how far one probe may move from the others.

// The ladder's step: a score moves about 0.7 a quality step near the targets and its noise
// between neighbouring qualities is about as large, so telling neighbours apart costs probes that
// buy little; at this step the answer is at most LADDER_STEP - 1 qualities above the exact one.
const LADDER_STEP = 3;

// The sample search moves at most this many qualities from the nearest probe at a time: the
// prior's shape, stretched through one probe far from the target, can point to the ceiling, and a
// probe far past the answer narrows the bracket little (scripts/bench-quality/README.md).
const MAX_SAMPLE_STEP = 12;

/** Every LADDER_STEP-th quality from `ceiling` down, lowest first. */
export function qualitiesUpTo(ceiling: number): number[] {
  const ladder: number[] = [];
  for (let q = ceiling; q >= 1; q -= LADDER_STEP) ladder.unshift(q);
  return ladder;
}

/** Every other rung, the top kept: the sample search's ladder. */
export function coarseRungs(rungs: number[]): number[] {
  return rungs.filter((_, index) => (rungs.length - 1 - index) % 2 === 0);
}

/** A predicted quality moved to within MAX_SAMPLE_STEP of the nearest probe made. */
export function withinReach(predicted: number, probed: number[]): number {
  if (probed.length === 0 || !Number.isFinite(predicted)) return predicted;
  const nearest = nearestQuality(probed, predicted);
  return Math.min(nearest + MAX_SAMPLE_STEP, Math.max(nearest - MAX_SAMPLE_STEP, predicted));
}

/** The quality among `qualities` (at least one) nearest `quality`. */
export function nearestQuality(qualities: number[], quality: number): number {
  return qualities.reduce((a, b) => (Math.abs(b - quality) < Math.abs(a - quality) ? b : a));
}
