// Gaussian blur (transform `blur_`), sigma in pixels of the output.
import type { ImageStep } from "./image-step.ts";

export function blur(sigma: number | undefined): ImageStep {
  return (work) => {
    if (sigma !== undefined) work.image.blur(sigma);
  };
}
