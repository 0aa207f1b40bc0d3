// A score curve: how SSIMULACRA 2 typically rises with an encoder's quality, as points between
// which it is taken to be linear. Quality searches start from it (the quality a target score
// usually needs) and extrapolate along it from a probe.

export type ScoreCurve = readonly (readonly [quality: number, score: number])[];

/** The quality at which the curve reaches `score`, extended past its ends along its end segments. */
export function qualityAtScore(curve: ScoreCurve, score: number): number {
  for (let i = 1; i < curve.length; i++) {
    const [q0, s0] = curve[i - 1]!;
    const [q1, s1] = curve[i]!;
    if (score <= s1 || i === curve.length - 1) return q0 + ((score - s0) * (q1 - q0)) / (s1 - s0);
  }
  return 100;
}
