// Structural similarity of two luma images as Wang, Bovik, Sheikh and Simoncelli
// (2004) define it: local statistics under an 11x11 Gaussian window (sigma 1.5),
// K1 = 0.01, K2 = 0.03, L = 255, averaged over every window that fits the image.
// A window over identical pixels scores exactly 1, so only the windows touching the
// bounding box of the differing pixels are filtered: renders of a rewritten PDF
// usually differ in a few image areas, and this makes a full page cheap.

export interface LumaImage {
  data: ArrayLike<number>;
  width: number;
  height: number;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const SIGMA = 1.5;
const MAX_RADIUS = 5;
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

function gaussianKernel(radius: number): Float64Array {
  const kernel = new Float64Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    const weight = Math.exp(-(i * i) / (2 * SIGMA * SIGMA));
    kernel[i + radius] = weight;
    sum += weight;
  }
  for (let i = 0; i < kernel.length; i++) kernel[i]! /= sum;
  return kernel;
}

/** Images smaller than the window get the largest window that fits. */
function windowRadius(width: number, height: number): number {
  return Math.max(0, Math.min(MAX_RADIUS, Math.floor((Math.min(width, height) - 1) / 2)));
}

function differingBox(a: LumaImage, b: LumaImage): Box | null {
  let box: Box | null = null;
  for (let y = 0; y < a.height; y++) {
    const rowStart = y * a.width;
    for (let x = 0; x < a.width; x++) {
      if (a.data[rowStart + x] === b.data[rowStart + x]) continue;
      if (box === null) box = { x0: x, y0: y, x1: x, y1: y };
      box.x0 = Math.min(box.x0, x);
      box.x1 = Math.max(box.x1, x);
      box.y1 = y;
    }
  }
  return box;
}

/** The pixels every window touching [from, to] reads, at least one window wide, inside [0, size). */
function span(from: number, to: number, radius: number, size: number): [number, number] {
  const window = 2 * radius + 1;
  let start = Math.max(0, from - 2 * radius);
  const end = Math.min(size, Math.max(to + 2 * radius + 1, start + window));
  start = Math.min(start, end - window);
  return [start, end];
}

/**
 * Gaussian-weighted local means of the given per-pixel values over the valid windows of
 * a crop. Vertical pass first, row by row, so both passes walk memory contiguously.
 */
function filterValid(values: Float64Array, width: number, height: number, kernel: Float64Array): Float64Array {
  const taps = kernel.length;
  const outWidth = width - taps + 1;
  const outHeight = height - taps + 1;
  const out = new Float64Array(outWidth * outHeight);
  const column = new Float64Array(width);
  for (let y = 0; y < outHeight; y++) {
    column.fill(0);
    for (let k = 0; k < taps; k++) {
      const weight = kernel[k]!;
      const rowStart = (y + k) * width;
      for (let x = 0; x < width; x++) column[x]! += weight * values[rowStart + x]!;
    }
    const outStart = y * outWidth;
    for (let x = 0; x < outWidth; x++) {
      let sum = 0;
      for (let k = 0; k < taps; k++) sum += kernel[k]! * column[x + k]!;
      out[outStart + x] = sum;
    }
  }
  return out;
}

/**
 * Sum of the SSIM map over the valid windows of the crop [x0, x1) x [y0, y1). The formula
 * needs the two variances only as a sum, so a^2 + b^2 is filtered once instead of twice.
 */
function ssimSum(a: LumaImage, b: LumaImage, crop: Box, kernel: Float64Array): { sum: number; windows: number } {
  const width = crop.x1 - crop.x0;
  const height = crop.y1 - crop.y0;
  const channels = [0, 1, 2, 3].map(() => new Float64Array(width * height));
  const [ca, cb, squares, products] = channels as [Float64Array, Float64Array, Float64Array, Float64Array];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const source = (crop.y0 + y) * a.width + crop.x0 + x;
      const i = y * width + x;
      const va = a.data[source]!;
      const vb = b.data[source]!;
      ca[i] = va;
      cb[i] = vb;
      squares[i] = va * va + vb * vb;
      products[i] = va * vb;
    }
  }
  const [ma, mb, mSquares, mProducts] = channels.map((channel) => filterValid(channel, width, height, kernel)) as [Float64Array, Float64Array, Float64Array, Float64Array];
  let sum = 0;
  for (let i = 0; i < ma.length; i++) {
    const meanA = ma[i]!;
    const meanB = mb[i]!;
    const meanSquares = meanA * meanA + meanB * meanB;
    const covariance = mProducts[i]! - meanA * meanB;
    const varianceSum = mSquares[i]! - meanSquares;
    sum += ((2 * meanA * meanB + C1) * (2 * covariance + C2)) / ((meanSquares + C1) * (varianceSum + C2));
  }
  return { sum, windows: ma.length };
}

/** Mean SSIM of two images of equal size (1 when identical). */
export function ssim(a: LumaImage, b: LumaImage): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`SSIM needs equal sizes: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  const radius = windowRadius(a.width, a.height);
  const totalWindows = (a.width - 2 * radius) * (a.height - 2 * radius);
  const differing = differingBox(a, b);
  if (differing === null || totalWindows <= 0) return 1;
  const [x0, x1] = span(differing.x0, differing.x1, radius, a.width);
  const [y0, y1] = span(differing.y0, differing.y1, radius, a.height);
  const { sum, windows } = ssimSum(a, b, { x0, y0, x1, y1 }, gaussianKernel(radius));
  return (sum + (totalWindows - windows)) / totalWindows;
}
