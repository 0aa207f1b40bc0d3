// How much of an image lies on smooth surfaces: flat fills and soft gradients, as in charts,
// logos and shaded vector art, against the grain and texture of a photo or a scan. The sample's
// estimate of a whole image's score (quality/sample-mosaic.ts) was measured on photos; on
// images made almost entirely of smooth surfaces it strays (perceptual-floor.ts).
import type { RawPixels } from "./raw-pixels.ts";

// A pixel is on a smooth surface when its luma's Laplacian (4 x centre minus its 4 neighbours)
// is below this: about one level of curvature, which a gradient's rounding reaches and grain does not.
const SMOOTH_LAPLACIAN = 3;
// Every STEP-th pixel of every STEP-th row is looked at: the share is a statistic, not a map.
const STEP = 2;

/** The share (0 to 1) of the image's inner pixels whose luma has no more curvature than a gradient's. CMYK's luma is its ink: the mean of C, M and Y plus K. */
export function smoothShare(pixels: RawPixels): number {
  const { data, width, height, channels } = pixels;
  if (width < 3 || height < 3) return 1;
  const luma = (i: number): number => {
    const at = i * channels;
    if (channels === 1) return data[at]!;
    const rgb = (data[at]! + data[at + 1]! + data[at + 2]!) / 3;
    return channels === 3 ? rgb : rgb + data[at + 3]!;
  };
  let smooth = 0;
  let seen = 0;
  for (let y = 1; y < height - 1; y += STEP) {
    for (let x = 1; x < width - 1; x += STEP) {
      const i = y * width + x;
      const laplacian = 4 * luma(i) - luma(i - 1) - luma(i + 1) - luma(i - width) - luma(i + width);
      if (Math.abs(laplacian) < SMOOTH_LAPLACIAN) smooth++;
      seen++;
    }
  }
  return smooth / seen;
}
