// The origin's half of URL transforms: everything the edge pipeline leaves (large sources, blur,
// sharpen, rotation, EXIF orientation, padding, content-aware crops, CMYK, AVIF/GIF/TIFF
// sources), as a step list. Geometry follows the edge (fit-box.ts).
import sharp, { type Sharp } from "sharp";
import type { z } from "@hono/zod-openapi";
import type { originTransformSchema, OriginTransformMeta } from "../../contracts/origin/image-transform.ts";
import { askedFormat, keepsAnimation, resolveOutputFormat } from "../../contracts/transform/output-format.ts";
import { TRANSFORM_STEPS, type TransformStepName } from "../../contracts/transform/registry.ts";
import type { ImageOutputFormat, OutputChroma } from "../../contracts/image-options.ts";
import { autoOrient } from "./auto-orient.ts";
import { blur } from "./blur.ts";
import { brightness } from "./brightness.ts";
import { contrast } from "./contrast.ts";
import { crop } from "./crop.ts";
import { decodeFailure, type Animation, type SourceImage } from "./decode-limits.ts";
import { encode } from "./encode.ts";
import { fitBox, type Padding } from "./fit-box.ts";
import { flatten, formatHasAlpha } from "./flatten.ts";
import { runSteps, type ImageStep } from "./image-step.ts";
import { searchPerceptualQuality, typicalQuality } from "./perceptual-quality.ts";
import { openOriginal } from "./open-original.ts";
import { lqipOf } from "./placeholder.ts";
import { imageFacts } from "./image-facts.ts";
import { flip } from "./flip.ts";
import { gamma } from "./gamma.ts";
import { saturation } from "./saturation.ts";
import { overlay } from "./overlay.ts";
import { rotate } from "./rotate.ts";
import { sharpen } from "./sharpen.ts";
import { toSrgb } from "./to-srgb.ts";
import { trim } from "./trim.ts";

export type TransformOptions = z.output<typeof originTransformSchema>;

export interface TransformedImage extends Omit<OriginTransformMeta, "size" | "sha256"> {
  /** The image, or for f_json the facts' JSON. */
  bytes: Uint8Array;
}

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

// bg_: an opaque colour for the padding; without it, transparent where the format keeps alpha, else white.
function paddingOf(background: string | undefined, format: ImageOutputFormat): Padding {
  if (background === undefined) return formatHasAlpha(format) ? TRANSPARENT : WHITE;
  const channel = (at: number) => Number.parseInt(background.slice(at, at + 2), 16);
  return { r: channel(0), g: channel(2), b: channel(4), alpha: 1 };
}

// Transforms take the image engine's encoder settings (baseline JPEG, the same quality scale for
// every format, 4:2:0 or the auto search's chroma), so a `q_76` derivative matches what
// /v1/image/optimize makes at quality 76.
export const TRANSFORM_ENCODING = { mozjpeg: true, progressive: false, chroma_subsampling: null, strip_metadata: true } as const;

// The step applying each token's work, by the name its registry declaration gives (TRANSFORM_STEPS
// orders them): a name without a step here fails to typecheck.
const tokenSteps: Record<TransformStepName, (options: TransformOptions, format: ImageOutputFormat, overlayBytes: Uint8Array | null) => ImageStep> = {
  crop: (options) => crop(options.crop),
  trim: (options) => trim(options.trim),
  rotate: (options) => rotate(options.rotate),
  flip: (options) => flip(options.flip, options.rotate),
  brightness: (options) => brightness(options.brightness),
  contrast: (options) => contrast(options.contrast),
  saturation: (options) => saturation(options.saturation),
  gamma: (options) => gamma(options.gamma),
  fit: (options, format) => fitBox(options, paddingOf(options.background, format)),
  blur: (options) => blur(options.blur),
  sharpen: (options) => sharpen(options.sharpen),
  overlay: (options, _format, overlayBytes) => overlay(options.overlay, overlayBytes),
};

/** `overlayBytes`: the overlay file's bytes when the options name one (l_). */
export function transformSteps(options: TransformOptions, source: SourceImage, format: ImageOutputFormat, overlayBytes: Uint8Array | null = null): ImageStep[] {
  return [
    autoOrient(true),
    toSrgb,
    ...TRANSFORM_STEPS.map((name) => tokenSteps[name](options, format, overlayBytes)),
    flatten(source.has_alpha ? "transparent" : "none", format, options.background === undefined ? null : `#${options.background}`),
  ];
}

function animates(options: TransformOptions, source: SourceImage): boolean {
  // A placeholder is one still preview: of the first frame.
  return options.placeholder === undefined && options.animated && source.animation !== null && keepsAnimation(askedFormat(options.output, options.format_auto));
}

function outputFormat(options: TransformOptions, source: SourceImage): ImageOutputFormat {
  return animates(options, source) ? "webp" : resolveOutputFormat(options.output, source.format, source.has_alpha);
}

// q_auto: the lowest quality reaching the level's score (an animation: the level's typical quality). PNG is lossless.
async function encodeTransform(image: Sharp, format: ImageOutputFormat, quality: TransformOptions["quality"], animation: Animation | null): Promise<Uint8Array> {
  if (format === "png") return encode(image, { format, lossless: true, quality: 100 }, TRANSFORM_ENCODING, animation);
  if (typeof quality === "number") return encode(image, { format, lossless: false, quality }, TRANSFORM_ENCODING, animation);
  if (animation !== null) return encode(image, { format, lossless: false, quality: typicalQuality(format, quality.auto) }, TRANSFORM_ENCODING, animation);
  const { data, info } = await image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const rendered = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const encodeAt = (q: number, chroma: OutputChroma) => encode(rendered(), { format, lossless: false, quality: q }, { ...TRANSFORM_ENCODING, chroma_subsampling: chroma });
  return (await searchPerceptualQuality(rendered(), encodeAt, { format, level: quality.auto, encoder: TRANSFORM_ENCODING })).bytes;
}

export async function transformImage(original: Uint8Array, options: TransformOptions, overlayBytes: Uint8Array | null = null): Promise<TransformedImage> {
  // A crop's pixels are the source's own: an SVG or a PDF page is drawn at its own size, not the output's.
  const target = options.crop === undefined ? { width: options.width, height: options.height } : {};
  const { input, source } = await openOriginal(original, target, options.page);
  if (options.facts) return factsOf(input, source, options);
  // ph_lqip: the shaped image's placeholder preview, always WebP (alpha kept), at its own quality.
  const format = options.placeholder === "lqip" ? "webp" : outputFormat(options, source);
  try {
    const { image, animation } = await runSteps(input, source, transformSteps(options, source, format, overlayBytes), { animated: animates(options, source) });
    const bytes = options.placeholder === "lqip" ? await lqipOf(image) : await encodeTransform(image, format, options.quality, animation);
    const { width, height } = await sharp(bytes).metadata();
    return { bytes, format, width, height };
  } catch (error) {
    throw decodeFailure(error);
  }
}

// The facts, with the output size of the first frame through the steps an image output would take.
async function factsOf(input: Uint8Array, source: SourceImage, options: TransformOptions): Promise<TransformedImage> {
  const format = resolveOutputFormat(options.output, source.format, source.has_alpha);
  try {
    const facts = await imageFacts(input, source, transformSteps(options, source, format));
    return { bytes: new TextEncoder().encode(JSON.stringify(facts)), format: "json", width: facts.output.width, height: facts.output.height };
  } catch (error) {
    throw decodeFailure(error);
  }
}
