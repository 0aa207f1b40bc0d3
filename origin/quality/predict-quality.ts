// Where a quality search's score reaches its target: the one model auto quality
// (image/perceptual-quality.ts) and the PDF floors (pdf/perceptual-floor.ts) both guide
// searchQualityBoundary with. The predicate there is "the score is below the target", so a
// passing probe lies below the target and a failing one reaches it.
//
// The prior curve gives the shape, each probe how far this image sits from it (its quality minus
// the prior's quality for its score). Interpolating that offset in score, not the score in
// quality, follows the curve's bend across a wide bracket:
// - between a probe below and one above the target;
// - else through the two lowest probes above it (an image stored as JPEG already scores high at
//   low qualities, its curve far flatter than the prior);
// - else the prior shifted through the one probe there is, OVERSHOOT qualities further;
// - else the prior itself.
import type { Bracket, Probe } from "../image/fit-to-bytes.ts";
import { qualityAtScore, type ScoreCurve } from "./score-curve.ts";

export interface ScoredProbe {
  score: number;
}

// Extrapolating from one side, the prediction goes this many qualities past where the curve puts
// the target, so the next probe most likely lands on the other side and closes a bracket, inside
// which interpolation is far more accurate than creeping up one quality at a time.
const OVERSHOOT = 1.5;

/** The quality at which the score is predicted to reach `target`, from the probes so far and the prior curve. */
export function predictQuality<T extends ScoredProbe>({ passing, failing, previousFailing }: Bracket<T>, target: number, prior: ScoreCurve): number {
  const priorQuality = (score: number) => qualityAtScore(prior, score);
  const offset = (probe: Probe<T>) => probe.quality - priorQuality(probe.value.score);
  const through = (low: Probe<T>, high: Probe<T>): number | null => {
    const rise = high.value.score - low.value.score;
    if (!(rise > 0)) return null;
    const t = (target - low.value.score) / rise;
    return priorQuality(target) + offset(low) + t * (offset(high) - offset(low));
  };
  if (passing !== null && failing !== null) {
    const predicted = through(passing, failing) ?? (passing.quality + failing.quality) / 2;
    return Math.min(failing.quality, Math.max(passing.quality, predicted));
  }
  if (failing !== null && previousFailing !== null) {
    const extrapolated = through(failing, previousFailing);
    if (extrapolated !== null) return extrapolated;
  }
  if (passing !== null) return priorQuality(target) + offset(passing) + OVERSHOOT;
  if (failing !== null) return priorQuality(target) + offset(failing) - OVERSHOOT;
  return priorQuality(target);
}
