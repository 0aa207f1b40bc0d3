// Unsharp mask (transform `sharpen_`), sigma in pixels of the output.
import type { ImageStep } from "./image-step.ts";

export function sharpen(sigma: number | undefined): ImageStep {
  return (work) => {
    if (sigma !== undefined) work.image.sharpen({ sigma });
  };
}
