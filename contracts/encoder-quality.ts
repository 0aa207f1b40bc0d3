// What a requested quality (`q_76`, `quality: 76`) means to each tier's encoder, per lossy format.
// The quality scale is the origin's (sharp: mozjpeg settings, libwebp, libheif/aom at effort 2): every
// calibration was read on it (origin/quality/README.md, contracts/perceptual-quality.ts). The edge
// encodes with jSquash, whose mozjpeg and libwebp take the same numbers to the same bytes, and whose
// libavif at speed 8 makes a lower score than libheif at the same number: on generated photos at
// q30-q90, 100 - (100 - q) * 7/8 brought it within 2 SSIMULACRA 2 points and 20% in bytes
// (q76 -> 79), where the former q * 0.8 (q76 -> 61) lost 14 points and half the bytes. One URL then
// makes the same image whichever tier computes it; test/tiers/encoder-agreement.test.ts holds both
// tiers to it.
import type { ImageOutputFormat } from "./image-options.ts";

export type LossyOutputFormat = Exclude<ImageOutputFormat, "png">;

/** The encoder library each tier runs: sharp (libvips) in the origin, jSquash (WASM) at the edge. */
export type ImageEncoder = "sharp" | "jsquash";

const asRequested = (quality: number): number => quality;

const encoderQualities: Record<ImageEncoder, Record<LossyOutputFormat, (quality: number) => number>> = {
  sharp: { jpeg: asRequested, webp: asRequested, avif: asRequested },
  jsquash: { jpeg: asRequested, webp: asRequested, avif: (quality) => Math.round(100 - ((100 - quality) * 7) / 8) },
};

/** The quality number to hand `encoder` for an output of `format` at the requested `quality`. */
export function encoderQuality(encoder: ImageEncoder, format: LossyOutputFormat, quality: number): number {
  return encoderQualities[encoder][format](quality);
}
