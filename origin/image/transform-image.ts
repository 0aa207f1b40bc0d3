// The origin's half of URL transforms: everything the edge pipeline leaves (large sources, blur,
// sharpen, rotation, EXIF orientation, padding, content-aware crops, CMYK, AVIF/GIF/TIFF
// sources). Open the original, decide the output (transform-encode.ts), run the step list
// (transform-steps.ts), encode; f_mp4 and f_webm hand the frames to ffmpeg (video/). Geometry follows the edge (fit-box.ts).
import sharp from "sharp";
import type { OriginTransformMeta } from "../../contracts/origin/image-transform.ts";
import { resolveOutputFormat } from "../../contracts/transform/output-format.ts";
import { decodeFailure, type SourceImage } from "./decode-limits.ts";
import { runSteps } from "./image-step.ts";
import { openOriginal } from "./open-original.ts";
import type { RasterTarget } from "./foreign-source/raster-target.ts";
import { FACE_GRAVITIES } from "../../contracts/transform/token-values.ts";
import { imageFacts } from "./image-facts.ts";
import { encodeTransformed, transformOutput } from "./transform-encode.ts";
import { transformSteps, type TransformOptions } from "./transform-steps.ts";
import { faceSearch, type FaceSearch } from "./faces/face-search.ts";
import { animationToVideo } from "./video/animation-to-video.ts";

export interface TransformedImage extends Omit<OriginTransformMeta, "size" | "sha256"> {
  /** The image, the video (f_mp4, f_webm), or for f_json the facts' JSON. */
  bytes: Uint8Array;
}

export async function transformImage(original: Uint8Array, options: TransformOptions, overlayBytes: Uint8Array | null = null): Promise<TransformedImage> {
  const { input, source } = await openOriginal(original, loadTarget(options), options.page);
  if (options.facts) return factsOf(input, source, options, faceSearch(input, options));
  if (options.video !== undefined) return animationToVideo(input, source, { ...options, video: options.video }, overlayBytes);
  try {
    const { format, animated } = transformOutput(options, source);
    const { image, animation } = await runSteps(input, source, transformSteps(options, source, format, overlayBytes, faceSearch(input, options)), { animated });
    const bytes = await encodeTransformed(image, format, options, animation);
    const { width, height } = await sharp(bytes).metadata();
    return { bytes, format, width, height };
  } catch (error) {
    throw decodeFailure(error);
  }
}

/**
 * The box the source is drawn or decoded for. A crop's pixels are the source's own: an SVG or a PDF
 * page is drawn at its own size, not the output's. A quarter turn comes before the fit, so the box
 * turns with it. A trim or a face's cover crop keeps part of the picture, and the facts report the
 * stored size, so neither lets a HEIC decode at half size; a drawing is made larger for the trim.
 */
export function loadTarget(options: TransformOptions): RasterTarget {
  if (options.crop !== undefined) return {};
  const turned = options.rotate % 180 !== 0;
  const faceCrop = FACE_GRAVITIES.includes(options.gravity) && options.fit === "cover";
  return {
    width: turned ? options.height : options.width,
    height: turned ? options.width : options.height,
    whole: options.trim === undefined && !faceCrop && options.facts !== true,
    trim: options.trim,
  };
}

// The facts, with the output size of the first frame through the steps an image output would take.
async function factsOf(input: Uint8Array, source: SourceImage, options: TransformOptions, faces: FaceSearch): Promise<TransformedImage> {
  const format = resolveOutputFormat(options.output, source.format, source.has_alpha);
  try {
    const facts = await imageFacts(input, source, transformSteps(options, source, format, null, faces), { options, faces });
    return { bytes: new TextEncoder().encode(JSON.stringify(facts)), format: "json", width: facts.output.width, height: facts.output.height };
  } catch (error) {
    throw decodeFailure(error);
  }
}
