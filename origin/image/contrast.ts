// Contrast (transform `ct_<-100..100>`): the colour channels stretched about mid-grey, by up to 4x
// at 100, or drawn towards it below 0 (flat grey at -100). Before the fit, so contain's padding
// (bg_) keeps its colour.
import { adjustNow, type ImageStep } from "./image-step.ts";

const MID_GREY = 255 / 2;

/** The slope about mid-grey: 0 to 1 below 0, 1 to 4 above. */
export function contrastSlope(percent: number): number {
  return percent < 0 ? 1 + percent / 100 : 1 + (3 * percent) / 100;
}

export function contrast(percent: number | undefined): ImageStep {
  return async (work) => {
    if (percent === undefined) return;
    const slope = contrastSlope(percent);
    await adjustNow(work, (image) => image.linear(slope, MID_GREY * (1 - slope)));
  };
}
