// Gaussian blur (transform `blur_`), sigma in pixels of the output; each frame of an animation on its own.
import { eachFrame, type ImageStep } from "./image-step.ts";

export function blur(sigma: number | undefined): ImageStep {
  return async (work) => {
    if (sigma === undefined) return;
    if (work.animation === null) work.image.blur(sigma);
    else await eachFrame(work, (frame) => frame.blur(sigma));
  };
}
