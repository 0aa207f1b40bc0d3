// The origin transform's last step: the shaped image encoded in the output format, at the fixed
// quality, q_auto's searched one, or as ph_lqip's placeholder preview.
import sharp, { type Sharp } from "sharp";
import type { ImageOutputFormat, OutputChroma } from "../../contracts/image-options.ts";
import type { Animation, SourceImage } from "./decode-limits.ts";
import { askedFormat, keepsAnimation, resolveOutputFormat } from "../../contracts/transform/output-format.ts";
import { encode, type EncoderKnob } from "./encode.ts";
import { searchPerceptualQuality, typicalQuality } from "./perceptual-quality.ts";
import { lqipOf } from "./placeholder.ts";
import type { TransformOptions } from "./transform-steps.ts";

// Transforms take the image engine's encoder settings (baseline JPEG, the same quality scale for
// every format, 4:2:0 or the auto search's chroma), so a `q_76` derivative matches what
// /v1/image/optimize makes at quality 76.
export const TRANSFORM_ENCODING = { mozjpeg: true, progressive: false, chroma_subsampling: null, strip_metadata: true } as const;

/** The output's format, and whether every frame of an animated source is kept. */
export function transformOutput(options: TransformOptions, source: SourceImage): { format: ImageOutputFormat; animated: boolean } {
  const animated = animates(options, source);
  // ph_lqip: the shaped image's placeholder preview, always WebP (alpha kept), at its own quality.
  if (options.placeholder === "lqip") return { format: "webp", animated };
  return { format: animated ? "webp" : resolveOutputFormat(options.output, source.format, source.has_alpha), animated };
}

function animates(options: TransformOptions, source: SourceImage): boolean {
  // A placeholder is one still preview: of the first frame.
  return options.placeholder === undefined && options.animated && source.animation !== null && keepsAnimation(askedFormat(options.output, options.format_auto));
}

/** The shaped image's bytes: ph_lqip's preview, or the image at its quality. */
export function encodeTransformed(image: Sharp, format: ImageOutputFormat, options: TransformOptions, animation: Animation | null): Promise<Uint8Array> {
  return options.placeholder === "lqip" ? lqipOf(image) : encodeTransform(image, format, options.quality, animation);
}

// q_auto: the lowest quality reaching the level's score (an animation: the level's typical quality). PNG is lossless.
async function encodeTransform(image: Sharp, format: ImageOutputFormat, quality: TransformOptions["quality"], animation: Animation | null): Promise<Uint8Array> {
  if (format === "png") return encode(image, { format, lossless: true, quality: 100 }, TRANSFORM_ENCODING, animation);
  if (typeof quality === "number") return encode(image, { format, lossless: false, quality }, TRANSFORM_ENCODING, animation);
  if (animation !== null) return encode(image, { format, lossless: false, quality: typicalQuality(format, quality.auto) }, TRANSFORM_ENCODING, animation);
  const { data, info } = await image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const rendered = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const encodeAt = (q: number, chroma: OutputChroma, knob?: EncoderKnob) => encode(rendered(), { format, lossless: false, quality: q, ...knob }, { ...TRANSFORM_ENCODING, chroma_subsampling: chroma });
  return (await searchPerceptualQuality(rendered(), encodeAt, { format, level: quality.auto, encoder: TRANSFORM_ENCODING })).bytes;
}
