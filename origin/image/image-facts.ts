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
import type { DetectedFace } from "./faces/face-detector.ts";
import { appliedGravity, type FaceSearch } from "./faces/face-search.ts";
import type { TransformOptions } from "./transform-steps.ts";

async function renderedSize(image: Sharp): Promise<{ width: number; height: number }> {
  const { info } = await image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height };
}

// A face in whole pixels of the upright picture, at least one pixel a side.
function inPixels(face: DetectedFace, picture: { width: number; height: number }): ImageFacts["faces"][number] {
  const x = Math.round(face.x * picture.width);
  const y = Math.round(face.y * picture.height);
  return { x, y, width: Math.max(1, Math.round(face.width * picture.width)), height: Math.max(1, Math.round(face.height * picture.height)), score: Math.round(face.score * 1000) / 1000 };
}

/** `shaping` is the transform's step list up to (not including) encoding, run with `faces`. */
export async function imageFacts(input: Uint8Array, source: SourceImage, shaping: ImageStep[], call: { options: Pick<TransformOptions, "gravity" | "focus">; faces: FaceSearch }): Promise<ImageFacts> {
  const upright = await runSteps(input, source, [autoOrient(true), toSrgb]);
  const shaped = await runSteps(input, source, shaping);
  const faces = await call.faces.sourceFaces();
  return {
    width: source.width,
    height: source.height,
    format: source.format,
    orientation: source.orientation ?? 1,
    frames: source.animation?.frames ?? 1,
    has_alpha: source.has_alpha,
    dominant_color: await dominantColorOf(upright.image),
    output: await renderedSize(shaped.image),
    faces: faces.map((face) => inPixels(face, upright.upright)),
    gravity: appliedGravity(call.options, call.faces.found),
  };
}
