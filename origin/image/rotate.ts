// A clockwise turn asked for by the caller (transform `r_`), after the EXIF orientation.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { ImageStep } from "./image-step.ts";

export function rotate(degrees: number): ImageStep {
  return (work) => {
    if (degrees === 0) return;
    // libvips turns the stacked frames as one picture, which would scramble them.
    if (work.animation !== null) throw new ProblemError("unprocessable", `r_${degrees} cannot turn an animation; add anim_false to turn its first frame.`);
    work.image.rotate(degrees);
  };
}
