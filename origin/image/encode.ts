// One encoder call per target. Settings are spelled out rather than taken
// from sharp's presets: its `mozjpeg: true` preset also switches progressive
// on, and the contract says baseline unless `progressive` is asked for.
import type { Sharp } from "sharp";
import { encoderQuality } from "../../contracts/encoder-quality.ts";
import type { ImageOptions, ImageOutputFormat, OutputChroma } from "../../contracts/image-options.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Animation } from "./decode-limits.ts";

export interface EncodeTarget {
  format: ImageOutputFormat;
  /** Lossless WebP, or full-colour lossless PNG; `quality` is then ignored. */
  lossless: boolean;
  /** As requested; contracts/encoder-quality.ts says what it means to sharp's encoders. */
  quality: number;
  /**
   * AVIF only: the encoder's fastest effort, for an auto-quality search's drafts (perceptual-search.ts),
   * never an output. It scores up to a few points below the output at the same quality.
   */
  draft?: boolean;
  /**
   * JPEG with `mozjpeg` only: mozjpeg's quantisation table (sharp's `quantisationTable`), MOZJPEG_TABLE
   * unless an auto-quality search chose another (perceptual-rules.ts: searchKnob's 5, FINER_KNOBS).
   */
  jpegTable?: number;
  /** Lossy WebP only: libwebp's effort (method), WEBP_EFFORT unless an auto-quality search chose another (FINER_KNOBS). */
  webpEffort?: number;
}

/** What an auto-quality search may set besides the quality and the chroma. */
export type EncoderKnob = Pick<EncodeTarget, "jpegTable" | "webpEffort">;

/** mozjpeg's own quantisation table, which `mozjpeg: true` encodes with. */
export const MOZJPEG_TABLE = 3;
// WebP's effort: libwebp's default method.
const WEBP_EFFORT = 4;
/** libjpeg's (JPEG Annex K), which sharp encodes with when no table is named. */
const LIBJPEG_TABLE = 0;

/** The quantisation table a JPEG encode of `target` uses; null for any other output. */
export function jpegTableOf(target: EncodeTarget, mozjpeg: boolean): number | null {
  if (target.format !== "jpeg") return null;
  return mozjpeg ? (target.jpegTable ?? MOZJPEG_TABLE) : LIBJPEG_TABLE;
}

/** The effort a WebP encode of `target` uses; null for any other output. */
export function webpEffortOf(target: EncodeTarget): number | null {
  if (target.format !== "webp") return null;
  return target.lossless ? WEBP_EFFORT : (target.webpEffort ?? WEBP_EFFORT);
}

/** `chroma_subsampling` null is 4:2:0 (plain for WebP); see `outputChroma`. */
export type EncoderOptions = Pick<ImageOptions, "mozjpeg" | "progressive" | "strip_metadata"> & { chroma_subsampling: OutputChroma | null };

/** The chroma an encode of `target` with this setting has: what each encoder makes of it; null for lossless output. */
export function outputChroma(target: EncodeTarget, chroma: OutputChroma | null): OutputChroma | null {
  if (target.lossless || target.format === "png") return null;
  if (target.format === "webp") return chroma === "sharp_yuv" ? "sharp_yuv" : "4:2:0";
  return subsampling(chroma);
}

/** JPEG and AVIF: 4:4:4 only when asked for. */
function subsampling(chroma: OutputChroma | null): "4:2:0" | "4:4:4" {
  return chroma === "4:4:4" ? "4:4:4" : "4:2:0";
}

/** `animation`: write every frame with this timing (WebP only: libvips writes AVIF frames as one tall picture). */
export async function encode(image: Sharp, target: EncodeTarget, options: EncoderOptions, animation: Animation | null = null): Promise<Uint8Array> {
  if (animation !== null && target.format !== "webp") throw new Error(`an animation cannot be encoded as ${target.format}`);
  applyEncoder(image, target, options, animation);
  // Keeping metadata still converts to sRGB and tags the output as sRGB.
  if (!options.strip_metadata) image.withMetadata();
  try {
    return new Uint8Array(await image.toBuffer());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/too large for the/i.test(message)) {
      throw new ProblemError("unprocessable", `The output dimensions exceed what ${target.format} can store: ${message}`);
    }
    throw error;
  }
}

function applyEncoder(image: Sharp, target: EncodeTarget, options: EncoderOptions, animation: Animation | null): void {
  switch (target.format) {
    case "jpeg":
      image.jpeg({
        quality: encoderQuality("sharp", target.format, target.quality),
        progressive: options.progressive,
        chromaSubsampling: subsampling(options.chroma_subsampling),
        optimiseCoding: true,
        ...(options.mozjpeg
          ? {
              trellisQuantisation: true,
              overshootDeringing: true,
              quantisationTable: target.jpegTable ?? MOZJPEG_TABLE,
              // Scan optimisation exists only for progressive JPEG (libvips
              // switches progressive on when it is requested).
              optimiseScans: options.progressive,
            }
          : {}),
      });
      return;
    case "webp":
      image.webp({
        ...(target.lossless
          ? { lossless: true, effort: WEBP_EFFORT }
          : { quality: encoderQuality("sharp", target.format, target.quality), effort: target.webpEffort ?? WEBP_EFFORT, smartSubsample: options.chroma_subsampling === "sharp_yuv" }),
        ...(animation === null ? {} : { delay: animation.delay, loop: animation.loop }),
      });
      return;
    case "avif":
      // Effort 2, not sharp's default 4: on a 1600x1200 photo effort 4 cost
      // 5 s of CPU against 0.4 s (it is also about 2 times smaller at the same
      // quality number; the speed matters more for a request/response API).
      image.avif({ quality: encoderQuality("sharp", target.format, target.quality), effort: target.draft === true ? 0 : 2, chromaSubsampling: subsampling(options.chroma_subsampling) });
      return;
    case "png":
      image.png(
        target.lossless
          ? { compressionLevel: 9, adaptiveFiltering: true }
          : { palette: true, colours: paletteColours(target.quality), effort: 3, dither: 1, compressionLevel: 9 },
      );
      return;
  }
}

// PNG has no quality. Lossless is full colour at maximum deflate effort. The
// lossy rung, used only to meet max_bytes, is libimagequant palette
// quantisation; libvips rounds a palette up to 2, 4, 16 or 256 colours (1, 2,
// 4 or 8 bits a pixel), so quality picks one of those four tiers and the
// search finds the largest palette that fits. Quantiser effort 3: effort 7
// cost 6 times the CPU for a file 10% smaller.
export function paletteColours(quality: number): 2 | 4 | 16 | 256 {
  if (quality > 75) return 256;
  if (quality > 50) return 16;
  if (quality > 25) return 4;
  return 2;
}

/** One quality per palette tier, the highest of each tier up to `ceiling`. */
export function paletteLadder(ceiling: number): number[] {
  return [...new Set([25, 50, 75, 100].map((top) => Math.min(top, ceiling)))];
}
