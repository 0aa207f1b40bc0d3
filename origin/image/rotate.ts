// A clockwise turn asked for by the caller (transform `r_`), after the EXIF orientation.
import type { ImageStep } from "./image-step.ts";

export function rotate(degrees: number): ImageStep {
  return (work) => {
    if (degrees !== 0) work.image.rotate(degrees);
  };
}
