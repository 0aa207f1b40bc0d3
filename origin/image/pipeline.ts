// The format-independent part of the work (decode, orient, colour, resize),
// rendered once to raw pixels so that every encode after it (auto candidates,
// max_bytes search) starts from memory instead of decoding the source again.
import sharp, { type Sharp } from "sharp";
import type { ImageOptions } from "../../contracts/image-options.ts";
import { autoOrient } from "./auto-orient.ts";
import { decodeFailure, openSource, type SourceImage } from "./decode-limits.ts";
import { applyResize, planResize } from "./resize.ts";
import { toSrgb } from "./to-srgb.ts";

export interface BuiltPipeline {
  image: Sharp;
  orientation_applied: number | null;
}

export function buildPipeline(
  input: Uint8Array,
  source: SourceImage,
  options: ImageOptions,
  padBackground: string | null,
): BuiltPipeline {
  const image = openSource(input);
  const oriented = autoOrient(image, source, source.orientation, options.auto_orient);
  toSrgb(image, source);
  applyResize(image, planResize(oriented.size, options), padBackground);
  return { image, orientation_applied: oriented.orientation_applied };
}

export interface RenderedPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  has_alpha: boolean;
  orientation_applied: number | null;
}

export async function renderPixels(input: Uint8Array, source: SourceImage, options: ImageOptions): Promise<RenderedPixels> {
  const { image, orientation_applied } = buildPipeline(input, source, options, options.background);
  try {
    const { data, info } = await image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    return {
      data,
      width: info.width,
      height: info.height,
      channels: info.channels,
      has_alpha: info.channels === 2 || info.channels === 4,
      orientation_applied,
    };
  } catch (error) {
    throw decodeFailure(error);
  }
}

export function openPixels(pixels: RenderedPixels): Sharp {
  const image = sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
  // sharp converts output to sRGB unless told otherwise; one channel means greyscale was kept on purpose.
  return pixels.channels === 1 ? image.toColourspace("b-w") : image;
}
