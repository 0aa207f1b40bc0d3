// A clockwise turn asked for by the caller (transform `r_`), after the EXIF orientation; each
// frame of an animation on its own (libvips would turn the stacked frames as one picture).
import { eachFrame, type ImageStep } from "./image-step.ts";

export function rotate(degrees: number): ImageStep {
  return async (work) => {
    if (degrees === 0) return;
    if (work.animation === null) work.image.rotate(degrees);
    else await eachFrame(work, (frame) => frame.rotate(degrees));
    if (degrees % 180 !== 0) work.upright = { width: work.upright.height, height: work.upright.width };
  };
}
