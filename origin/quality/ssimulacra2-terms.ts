// What a score is made of, apart from the pixels: the terms each scale contributes, and their
// weighted sum and final mapping. The scales are independent until this sum, so one lane can
// compute the finest scale (about two thirds of a comparison) while another computes the coarser
// ones, and the sum, taken scale by scale in the one order whatever the split, is the same number
// a single lane gives. Kept apart from the kernels so that the thread that adds up the shares does
// not load them.
import { WEIGHTS } from "./ssimulacra2-parameters.ts";

/** Which scales a prepared reference computes: every one, the finest only, or every coarser one. */
export type ScaleShare = "all" | "finest" | "coarser";

/**
 * One share's terms of a candidate's score, per page (one for an opaque pair; dark, then light,
 * for a pair judged over both) and per scale, per XYB channel: [SSIM mean, artifact mean,
 * detail-lost mean, and their 4-norms]; null for a scale outside the share or a channel unweighted there.
 */
export type ScaleTerms = (number[] | null)[][][];

/** The weights run over the scales computed (fewer for small images), channel by channel. */
export function weightsOf(scales: number, channel: number, scale: number): number[] {
  return WEIGHTS.slice((channel * scales + scale) * 6, (channel * scales + scale + 1) * 6);
}

/**
 * The score from the terms of shares that together cover every scale once (one "all", or a
 * "finest" and a "coarser"), summed scale by scale in the same order whatever the split.
 */
export function scoreOfTerms(shares: ScaleTerms[]): number {
  const pages = shares[0]!.length;
  if (shares.some((terms) => terms.length !== pages)) throw new RangeError("the shares were scored over different pages");
  let worst = Infinity;
  for (let page = 0; page < pages; page++) {
    const scales = shares[0]![page]!.length;
    let sum = 0;
    for (let scale = 0; scale < scales; scale++) {
      const computed = shares.map((terms) => terms[page]![scale]!).filter((channels) => channels.some((terms) => terms !== null));
      if (computed.length !== 1) throw new RangeError(`scale ${scale} was computed by ${computed.length} shares, not one`);
      for (let channel = 0; channel < 3; channel++) {
        const weights = weightsOf(scales, channel, scale);
        computed[0]![channel]?.forEach((value, i) => (sum += weights[i]! * Math.abs(value)));
      }
    }
    const distortion = sum * 17.829717797575952 - 1.634169143917183;
    worst = Math.min(worst, distortion > 0 ? 100 - 10 * distortion ** 0.5453261009510213 : 100);
  }
  return worst;
}
