// The origin's half of URL transforms: everything the edge pipeline leaves (large sources, blur,
// sharpen, rotation, EXIF orientation, padding, content-aware crops, AVIF/GIF/TIFF sources),
// with sharp. Geometry follows the edge: `inside` never enlarges, `cover` crops at the gravity.
import sharp from "sharp";
import type { z } from "@hono/zod-openapi";
import type { originTransformSchema, OriginTransformMeta } from "../../contracts/origin/image-transform.ts";
import { resolveOutputFormat } from "../../contracts/transform/output-format.ts";
import type { Gravity } from "../../contracts/transform/tokens.ts";
import { decodeFailure, inspectSource, openSource } from "./decode-limits.ts";
import { encode } from "./encode.ts";

export type TransformOptions = z.output<typeof originTransformSchema>;

export interface TransformedImage extends Omit<OriginTransformMeta, "size" | "sha256"> {
  bytes: Uint8Array;
}

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

function position(gravity: Gravity): string | number {
  if (gravity === "auto") return sharp.strategy.attention;
  return gravity === "center" ? "centre" : gravity;
}

// Transforms take the image engine's encoder settings (baseline JPEG, the same quality scale for
// every format), so a `q_76` derivative matches what /v1/image/optimize makes at quality 76.
const TRANSFORM_ENCODING = { mozjpeg: true, progressive: false, chroma_subsampling: "4:2:0", strip_metadata: true } as const;

export async function transformImage(input: Uint8Array, options: TransformOptions): Promise<TransformedImage> {
  const source = await inspectSource(input);
  const format = resolveOutputFormat(options.output, source.format, source.has_alpha);
  const keepsAlpha = format !== "jpeg";
  const image = openSource(input).autoOrient();
  if (options.rotate !== 0) image.rotate(options.rotate);
  if (options.width !== undefined || options.height !== undefined) {
    image.resize({
      width: options.width,
      height: options.height,
      fit: options.fit,
      position: position(options.gravity),
      withoutEnlargement: options.fit === "inside",
      background: keepsAlpha ? TRANSPARENT : WHITE,
    });
  }
  if (options.blur !== undefined) image.blur(options.blur);
  if (options.sharpen !== undefined) image.sharpen({ sigma: options.sharpen });
  if (!keepsAlpha) image.flatten({ background: WHITE });
  try {
    const bytes = await encode(image, { format, lossless: format === "png", quality: options.quality }, TRANSFORM_ENCODING);
    const { width, height } = await sharp(bytes).metadata();
    return { bytes, format, width: width!, height: height! };
  } catch (error) {
    throw decodeFailure(error);
  }
}
