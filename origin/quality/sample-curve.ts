// A search's sample probes are the image's own score curve, up to a shift: on the wallpapers of
// bench:quality the sample's estimate of a WebP output ran 2 to 3 points over its whole score,
// about evenly across qualities, while the prior curve was twice as steep as theirs. So once a
// whole output is scored, the quality where the output reaches an aim is read from the probes,
// shifted to pass through it, not from the prior: one move instead of three or four.
import { qualityAtScore, type ScoreCurve } from "./score-curve.ts";

/** A quality and its score: a probe's estimate, or a whole output's own. */
export interface QualityScore {
  quality: number;
  score: number;
}

/**
 * The quality where the sample's curve, shifted to pass through `output`, reaches `aim`, past the
 * probes along their end segments (the caller bounds the move); null when fewer than two probes
 * rise or they do not span the output's quality (the caller then falls back on the prior). Probes
 * whose score does not rise over a lower quality's are left out, so the curve can be read backwards.
 */
export function qualityAlongSample(probes: readonly QualityScore[], output: QualityScore, aim: number): number | null {
  const curve: [number, number][] = [];
  for (const { quality, score } of [...probes].sort((a, b) => a.quality - b.quality)) {
    if (curve.length === 0 || score > curve[curve.length - 1]![1]) curve.push([quality, score]);
  }
  if (curve.length < 2) return null;
  const estimate = scoreAtQuality(curve, output.quality);
  if (estimate === null) return null;
  return qualityAtScore(curve, aim - (output.score - estimate));
}

function scoreAtQuality(curve: ScoreCurve, quality: number): number | null {
  for (let i = 1; i < curve.length; i++) {
    const [q0, s0] = curve[i - 1]!;
    const [q1, s1] = curve[i]!;
    if (quality >= q0 && quality <= q1) return s0 + ((quality - q0) * (s1 - s0)) / (q1 - q0);
  }
  return null;
}
