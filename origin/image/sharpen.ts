// Unsharp mask (transform `sharpen_`), sigma in pixels of the output; each frame of an animation on its own.
import { eachFrame, type ImageStep } from "./image-step.ts";

export function sharpen(sigma: number | undefined): ImageStep {
  return async (work) => {
    if (sigma === undefined) return;
    if (work.animation === null) work.image.sharpen({ sigma });
    else await eachFrame(work, (frame) => frame.sharpen({ sigma }));
  };
}
