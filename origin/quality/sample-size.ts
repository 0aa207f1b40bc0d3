// How large a perceptual search's sample is, per format: a few percent of the image's pixels, so
// that three probes (each an encode, a decode and a score at ~500 ms per megapixel) cost less than
// two encodes of the whole image at ~50 ms per megapixel; never fewer than SAMPLE_MIN_TILES tiles
// nor more than SAMPLE_MAX_PIXELS. WebP's tiles are 128 pixels (its loop filter smears the seams
// of smaller ones, sample-mosaic.ts) and encoded one by one. A sample of `wholeShare` of the
// image or more is not cut: the image itself is probed, each probe a whole output. The
// measurements behind each figure: scripts/bench-quality/README.md, "Sample size".
import type { RawImage } from "./raw-image.ts";
import { blockSample, DEFAULT_TILE, type LossyFormat } from "./sample-mosaic.ts";

export const SAMPLE: Record<LossyFormat, { tile: number; fraction: number; wholeShare: number }> = {
  jpeg: { tile: DEFAULT_TILE, fraction: 0.04, wholeShare: 0.2 },
  webp: { tile: 128, fraction: 0.08, wholeShare: 0.5 },
  avif: { tile: DEFAULT_TILE, fraction: 0.04, wholeShare: 0.5 },
};
const SAMPLE_MIN_TILES = 8;
const SAMPLE_MAX_PIXELS = 512 * 512;

/** The image itself when it is small enough, else a mosaic of tiles spread evenly over it. */
export function sampleOf(image: RawImage, format: LossyFormat): RawImage {
  const { tile, fraction, wholeShare } = SAMPLE[format];
  const pixels = image.width * image.height;
  const budget = Math.min(SAMPLE_MAX_PIXELS, Math.max(SAMPLE_MIN_TILES * tile * tile, pixels * fraction));
  return budget >= pixels * wholeShare ? image : blockSample(image, budget, tile);
}
