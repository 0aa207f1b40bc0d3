// The optimize endpoint's steps: the format-independent part of the work (decode, orient,
// colour, resize), rendered once to raw pixels so that every encode after it (auto candidates,
// max_bytes search) starts from memory instead of decoding the source again. An animation kept
// whole is rendered as libvips holds it: its frames stacked into one tall image, page_height apart.
import sharp, { type Sharp } from "sharp";
import type { ImageOptions } from "../../contracts/image-options.ts";
import { autoOrient } from "./auto-orient.ts";
import { decodeFailure, type Animation, type SourceImage } from "./decode-limits.ts";
import { runSteps, type ImageStep, type ImageWork } from "./image-step.ts";
import { planResize, resize } from "./resize.ts";
import { toSrgb } from "./to-srgb.ts";

export function optimizeSteps(options: ImageOptions, padBackground: string | null): ImageStep[] {
  return [autoOrient(options.auto_orient), toSrgb, resize((upright) => planResize(upright, options), padBackground)];
}

export function buildPipeline(
  input: Uint8Array,
  source: SourceImage,
  options: ImageOptions,
  padBackground: string | null,
  animated: boolean,
): Promise<ImageWork> {
  return runSteps(input, source, optimizeSteps(options, padBackground), { animated });
}

export interface RenderedPixels {
  data: Buffer;
  width: number;
  /** All frames together; each frame is `page_height` rows. */
  height: number;
  page_height: number;
  channels: 1 | 2 | 3 | 4;
  has_alpha: boolean;
  orientation_applied: number | null;
  animation: Animation | null;
}

export async function renderPixels(input: Uint8Array, source: SourceImage, options: ImageOptions, animated: boolean): Promise<RenderedPixels> {
  try {
    const { image, orientation_applied, animation } = await buildPipeline(input, source, options, options.background, animated);
    const { data, info } = await image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    return {
      data,
      width: info.width,
      height: info.height,
      page_height: animation === null ? info.height : (info.pageHeight ?? info.height),
      channels: info.channels,
      has_alpha: info.channels === 2 || info.channels === 4,
      orientation_applied,
      animation,
    };
  } catch (error) {
    throw decodeFailure(error);
  }
}

export function openPixels(pixels: RenderedPixels): Sharp {
  const { width, height, page_height: pageHeight, channels } = pixels;
  const image = sharp(pixels.data, { raw: { width, height, channels, ...(pixels.animation === null ? {} : { pageHeight }) } });
  // sharp converts output to sRGB unless told otherwise; one channel means greyscale was kept on purpose.
  return pixels.channels === 1 ? image.toColourspace("b-w") : image;
}
