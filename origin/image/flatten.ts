// JPEG has no alpha: transparent pixels are composited onto the background
// rather than left to the encoder, which would drop alpha and expose whatever
// colour the transparent pixels happen to store. An alpha channel that is
// fully opaque is dropped for every format: it only costs bytes.
import type { Sharp } from "sharp";
import type { ImageOutputFormat } from "../../contracts/image-options.ts";
import type { AlphaUse } from "./choose-format.ts";
import type { ImageStep } from "./image-step.ts";

export const DEFAULT_FLATTEN_BACKGROUND = "#ffffff";

export function formatHasAlpha(format: ImageOutputFormat): boolean {
  return format !== "jpeg";
}

export function flattenForFormat(
  image: Sharp,
  alpha: AlphaUse,
  format: ImageOutputFormat,
  background: string | null,
): Sharp {
  if (alpha === "opaque") return image.removeAlpha();
  if (alpha === "none" || formatHasAlpha(format)) return image;
  return image.flatten({ background: background ?? DEFAULT_FLATTEN_BACKGROUND });
}

export function flatten(alpha: AlphaUse, format: ImageOutputFormat, background: string | null): ImageStep {
  return (work) => {
    flattenForFormat(work.image, alpha, format, background);
  };
}
