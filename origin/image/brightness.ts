// Brightness (transform `br_<-100..100>`): that percent of full scale added to every colour
// channel, alpha untouched. Before the fit, so contain's padding (bg_) keeps its colour.
import { adjustNow, type ImageStep } from "./image-step.ts";

export function brightness(percent: number | undefined): ImageStep {
  return async (work) => {
    if (percent === undefined) return;
    await adjustNow(work, (image) => image.linear(1, (percent * 255) / 100));
  };
}
