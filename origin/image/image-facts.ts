// f_json: the source's facts instead of an image. The facts are the source's as the pipeline reads
// it (a HEIC, SVG or PDF page converted first keeps its own format), the dominant colour of its
// upright sRGB pixels (the placeholder's own rule), and the size the transform's shaping steps give,
// measured by running them.
import type { Sharp } from "sharp";
import type { ImageFacts } from "../../contracts/origin/image-facts.ts";
import { autoOrient } from "./auto-orient.ts";
import type { SourceImage } from "./decode-limits.ts";
import { runSteps, type ImageStep } from "./image-step.ts";
import { dominantColorOf } from "./placeholder.ts";
import { toSrgb } from "./to-srgb.ts";

async function renderedSize(image: Sharp): Promise<{ width: number; height: number }> {
  const { info } = await image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height };
}

/** `shaping` is the transform's step list up to (not including) encoding. */
export async function imageFacts(input: Uint8Array, source: SourceImage, shaping: ImageStep[]): Promise<ImageFacts> {
  const upright = await runSteps(input, source, [autoOrient(true), toSrgb]);
  const shaped = await runSteps(input, source, shaping);
  return {
    width: source.width,
    height: source.height,
    format: source.format,
    orientation: source.orientation ?? 1,
    frames: source.animation?.frames ?? 1,
    has_alpha: source.has_alpha,
    dominant_color: await dominantColorOf(upright.image),
    output: await renderedSize(shaped.image),
  };
}
