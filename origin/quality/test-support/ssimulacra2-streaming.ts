// The first SSIMULACRA 2 of this module, kept as the oracle of the cached one (../ssimulacra2.ts):
// this is the version validated against calc-s2-rust in the README's table (largest difference
// 0.344 on 84 distortions), scoring one pair at a time, both sides streamed through the blur.
// The cached implementation rounds at the same places, so the tests hold the two to the same
// score on generated images.
// SSIMULACRA 2 (Cloudinary, Jon Sneyers 2022), written from its published description:
// sRGB to linear light to XYB (made positive), six scales each halved by a 2x2 box average in
// linear light, and per scale and XYB channel the SSIM error (mean and 4-norm of 1 - SSIM) and
// the edge differences (ringing/blocking "artifact" and blurring "detail lost", mean and
// 4-norm) against local means from a sigma 1.5 Gaussian, combined by the published weights.
// The weights and the final mapping are those of version 2.0, which the npm package
// calc-s2-rust (the reference this module was validated against) computes; 2.1 retuned them.
//
// Memory: nothing is held at full size. Rows stream through the Gaussian (its recursive form
// needs the 2r+1 rows around the output row, r = 5), so one scale costs O(width) floats and
// the only planes are the next scale's linear RGB (a quarter of the pixels, 6 floats each for
// the two images, while the one after it fills): about 7.5 bytes per input pixel beyond the
// inputs themselves (bench:quality measured 95 MB at 12 MP).
import type { RawImage } from "../raw-image.ts";
import { hasTransparency, scaleCount } from "../ssimulacra2-image.ts";
import { WEIGHTS, OPSIN_BIAS, OPSIN_BIAS_CBRT, M20, M21, M22, SRGB_TO_LINEAR, gaussian, type LinearImage } from "../ssimulacra2-parameters.ts";

/** SSIMULACRA 2 of `candidate` against `reference`: 100 is identical, 90 visually lossless, lower is worse (it can go below 0). */
export function streamingSsimulacra2(reference: RawImage, candidate: RawImage): number {
  if (reference.width !== candidate.width || reference.height !== candidate.height) {
    throw new RangeError(`images differ in size: ${reference.width}x${reference.height} against ${candidate.width}x${candidate.height}`);
  }
  if (reference.width < 8 || reference.height < 8) throw new RangeError("SSIMULACRA 2 needs images of at least 8x8 pixels");
  if (!hasTransparency(reference) && !hasTransparency(candidate)) {
    return scoreLinear(bytesReader(reference, 0), bytesReader(candidate, 0));
  }
  // Transparency is judged as it would be seen: over a dark and over a light page, the worse of the two.
  return Math.min(
    scoreLinear(bytesReader(reference, 0), bytesReader(candidate, 0)),
    scoreLinear(bytesReader(reference, 1), bytesReader(candidate, 1)),
  );
}

function planesReader(planes: [Float32Array, Float32Array, Float32Array], width: number, height: number): LinearImage {
  return {
    width,
    height,
    readRow(y, red, green, blue) {
      const start = y * width;
      red.set(planes[0].subarray(start, start + width));
      green.set(planes[1].subarray(start, start + width));
      blue.set(planes[2].subarray(start, start + width));
    },
  };
}

function scoreLinear(reference: LinearImage, candidate: LinearImage): number {
  const scales = scaleCount(reference.width, reference.height);
  // The weights run over the scales computed (fewer for small images), channel by channel.
  const weightsOf = (channel: number, scale: number) => WEIGHTS.slice((channel * scales + scale) * 6, (channel * scales + scale + 1) * 6);
  let sum = 0;
  let images: [LinearImage, LinearImage] = [reference, candidate];
  for (let scale = 0; scale < scales; scale++) {
    const { width, height } = images[0];
    const next = scale + 1 < scales ? [halfSizePlanes(width, height), halfSizePlanes(width, height)] as const : null;
    // A channel whose six weights at this scale are all zero is not computed (B at the two finest scales).
    const weighted = [0, 1, 2].map((channel) => weightsOf(channel, scale).some((weight) => weight !== 0));
    const stats = scaleStatistics(images, next, weighted);
    for (let channel = 0; channel < 3; channel++) {
      const weights = weightsOf(channel, scale);
      stats[channel]!.forEach((value, i) => (sum += weights[i]! * Math.abs(value)));
    }
    if (next === null) break;
    const halfWidth = (width + 1) >> 1;
    const halfHeight = (height + 1) >> 1;
    images = [planesReader(next[0], halfWidth, halfHeight), planesReader(next[1], halfWidth, halfHeight)];
  }
  const distortion = sum * 17.829717797575952 - 1.634169143917183;
  return distortion > 0 ? 100 - 10 * distortion ** 0.5453261009510213 : 100;
}

/** As published: a further scale is computed while the current one is at least 8x8, however small its half is. */
function halfSizePlanes(width: number, height: number): [Float32Array, Float32Array, Float32Array] {
  const size = ((width + 1) >> 1) * ((height + 1) >> 1);
  return [new Float32Array(size), new Float32Array(size), new Float32Array(size)];
}

/** Adds row y's quarter share to the next scale's 2x2 box average; an odd last row or column counts twice, as if the edge were repeated. */
/**
 * One scale: streams rows top to bottom, converting each to XYB, blurring the five local
 * quantities of each channel (a, b, a*a, b*b, a*b; a the reference, b the candidate)
 * horizontally into a ring of 2r+1 rows, then vertically, accumulating the SSIM and edge terms
 * of each output row as soon as it is complete.
 */
function scaleStatistics(images: readonly [LinearImage, LinearImage], next: readonly [Float32Array[], Float32Array[]] | null, weighted: boolean[]): number[][] {
  const { width, height } = images[0];
  const { radius } = gaussian;
  const ringRows = 2 * radius + 1;
  const linear = [0, 1].map(() => [new Float32Array(width), new Float32Array(width), new Float32Array(width)] as const);
  // xyb[image][channel] and blurred[channel]: rings of rows; a blurred row holds the five quantities of each pixel side by side.
  const xyb = [0, 1].map(() => [0, 1, 2].map(() => new Float32Array(ringRows * width)));
  const blurred = [0, 1, 2].map(() => new Float32Array(ringRows * width * 5));
  // Per channel and column, the vertical filters' last two outputs for each quantity (5 quantities x 3 filters x 2).
  const columnState = [0, 1, 2].map(() => new Float32Array(width * 30));
  const rowState = new Float32Array(30);
  const zeros = new Float32Array(width * 5);
  const sums = [0, 1, 2].map(() => new Float64Array(6));

  for (let n = 1 - radius; n < height; n++) {
    const bottom = n + radius - 1;
    if (bottom < height) {
      const slot = (bottom % ringRows) * width;
      for (let i = 0; i < 2; i++) {
        const [red, green, blue] = linear[i]!;
        images[i]!.readRow(bottom, red, green, blue);
        const planes = next?.[i];
        if (planes !== undefined) {
          accumulateHalf(planes[0]!, red, bottom, width, height);
          accumulateHalf(planes[1]!, green, bottom, width, height);
          accumulateHalf(planes[2]!, blue, bottom, width, height);
        }
        const [x, y, b] = xyb[i]!;
        toPositiveXyb(red, green, blue, x!, y!, b!, slot, width);
      }
      for (let c = 0; c < 3; c++) if (weighted[c]) blurRowHorizontally(xyb[0]![c]!, xyb[1]![c]!, slot, width, blurred[c]!, rowState);
    }
    const top = n - radius - 1;
    for (let c = 0; c < 3; c++) {
      if (!weighted[c]) continue;
      const rows = blurred[c]!;
      const upper = top >= 0 ? rows.subarray((top % ringRows) * width * 5) : zeros;
      const lower = bottom < height ? rows.subarray((bottom % ringRows) * width * 5) : zeros;
      const slot = (n % ringRows) * width;
      blurColumnsAndAccumulate(upper, lower, columnState[c]!, width, n >= 0 ? sums[c]! : null, xyb[0]![c]!, xyb[1]![c]!, slot);
    }
  }
  const pixels = width * height;
  return sums.map((s) => [s[0]! / pixels, s[2]! / pixels, s[4]! / pixels, (s[1]! / pixels) ** 0.25, (s[3]! / pixels) ** 0.25, (s[5]! / pixels) ** 0.25]);
}

function toPositiveXyb(red: Float32Array, green: Float32Array, blue: Float32Array, x: Float32Array, y: Float32Array, b: Float32Array, offset: number, width: number): void {
  for (let i = 0; i < width; i++) {
    const r = red[i]!;
    const g = green[i]!;
    const bl = blue[i]!;
    const long = Math.cbrt(0.3 * r + 0.622 * g + 0.078 * bl + OPSIN_BIAS) - OPSIN_BIAS_CBRT;
    const medium = Math.cbrt(0.23 * r + 0.692 * g + 0.078 * bl + OPSIN_BIAS) - OPSIN_BIAS_CBRT;
    const short = Math.cbrt(M20 * r + M21 * g + M22 * bl + OPSIN_BIAS) - OPSIN_BIAS_CBRT;
    const luma = 0.5 * (long + medium);
    // Shifted so every channel is positive, which the SSIM terms assume.
    x[offset + i] = 0.5 * (long - medium) + 0.5;
    y[offset + i] = luma + 0.05;
    b[offset + i] = short - luma + 1.1;
  }
}

// The filters run in single precision, rounding where the published implementations (C++
// libjxl, Rust rust-av) round: the filters' poles lie on the unit circle, so rounding error builds
// up along a row, and the SSIM terms (local variances are differences of blurred squares) are
// sensitive to it. Computing in double precision moved scores by up to 1.6 from both.
const f32 = Math.fround;
const [N1, N3, N5] = gaussian.n2.map(f32) as [number, number, number];
const [D1, D3, D5] = gaussian.d1.map(f32) as [number, number, number];

/** Keeps each filter's last two outputs in `state[at..at+5]` and returns the three filters' sum. */
function pushOutputs(state: Float32Array, at: number, out1: number, out3: number, out5: number): number {
  state[at + 1] = state[at]!;
  state[at] = out1;
  state[at + 3] = state[at + 2]!;
  state[at + 2] = out3;
  state[at + 5] = state[at + 4]!;
  state[at + 4] = out5;
  return f32(f32(out1 + out3) + out5);
}

/** One horizontal step of the three filters for one quantity; `state[at..at+5]` holds their last two outputs. */
function horizontalStep(sum: number, state: Float32Array, at: number): number {
  const out1 = f32(f32(f32(N1 * sum) - state[at + 1]!) - D1 * state[at]!);
  const out3 = f32(f32(f32(N3 * sum) - state[at + 3]!) - D3 * state[at + 2]!);
  const out5 = f32(f32(f32(N5 * sum) - state[at + 5]!) - D5 * state[at + 4]!);
  return pushOutputs(state, at, out1, out3, out5);
}

/** The same for the vertical pass, where the published order of operations differs. */
function verticalStep(sum: number, state: Float32Array, at: number): number {
  const out1 = f32(N1 * sum - f32(D1 * state[at]! + state[at + 1]!));
  const out3 = f32(N3 * sum - f32(D3 * state[at + 2]! + state[at + 3]!));
  const out5 = f32(N5 * sum - f32(D5 * state[at + 4]! + state[at + 5]!));
  return pushOutputs(state, at, out1, out3, out5);
}

/** Blurs the five quantities of one row of one channel (`a` and `b` rings, row at `offset`) into `out`, five values a pixel. */
function blurRowHorizontally(a: Float32Array, b: Float32Array, offset: number, width: number, out: Float32Array, state: Float32Array): void {
  const { radius } = gaussian;
  const sums = new Float64Array(5);
  state.fill(0);
  let at = offset * 5;
  for (let n = 1 - radius; n < width; n++) {
    const left = n - radius - 1;
    const right = n + radius - 1;
    const aLeft = left >= 0 ? a[offset + left]! : 0;
    const bLeft = left >= 0 ? b[offset + left]! : 0;
    const aRight = right < width ? a[offset + right]! : 0;
    const bRight = right < width ? b[offset + right]! : 0;
    sums[0] = f32(aLeft + aRight);
    sums[1] = f32(bLeft + bRight);
    sums[2] = f32(f32(aLeft * aLeft) + f32(aRight * aRight));
    sums[3] = f32(f32(bLeft * bLeft) + f32(bRight * bRight));
    sums[4] = f32(f32(aLeft * bLeft) + f32(aRight * bRight));
    // One call site in a loop, so the engine inlines the step.
    for (let q = 0; q < 5; q++) {
      const value = horizontalStep(sums[q]!, state, q * 6);
      if (n >= 0) out[at + q] = value;
    }
    if (n >= 0) at += 5;
  }
}

const C2 = 0.0009;

/**
 * One output row of the vertical blur of one channel, from the horizontally blurred rows r + 1
 * above and r - 1 below it; when `sums` is given (the row is inside the image), adds the row's
 * SSIM error and edge differences, each with its fourth power, to it.
 */
function blurColumnsAndAccumulate(upper: Float32Array, lower: Float32Array, state: Float32Array, width: number, sums: Float64Array | null, a: Float32Array, b: Float32Array, offset: number): void {
  const blurred = new Float64Array(5);
  let ssim = 0, ssim4 = 0, artifact = 0, artifact4 = 0, detail = 0, detail4 = 0;
  for (let x = 0, q = 0, s = 0; x < width; x++, q += 5, s += 30) {
    for (let i = 0; i < 5; i++) blurred[i] = verticalStep(f32(upper[q + i]! + lower[q + i]!), state, s + 6 * i);
    const m1 = blurred[0]!;
    const m2 = blurred[1]!;
    const s11 = blurred[2]!;
    const s22 = blurred[3]!;
    const s12 = blurred[4]!;
    if (sums === null) continue;
    const diff = m1 - m2;
    const numerator = (1 - diff * diff) * (2 * (s12 - m1 * m2) + C2);
    const denominator = s11 - m1 * m1 + (s22 - m2 * m2) + C2;
    const error = 1 - numerator / denominator;
    if (error > 0) {
      ssim += error;
      const squared = error * error;
      ssim4 += squared * squared;
    }
    // > 0: an edge where the reference is smooth (ringing, banding, blocks); < 0: an edge lost (blur).
    const edge = (1 + Math.abs(b[offset + x]! - m2)) / (1 + Math.abs(a[offset + x]! - m1)) - 1;
    const squared = edge * edge;
    if (edge > 0) {
      artifact += edge;
      artifact4 += squared * squared;
    } else {
      detail -= edge;
      detail4 += squared * squared;
    }
  }
  if (sums === null) return;
  sums[0]! += ssim;
  sums[1]! += ssim4;
  sums[2]! += artifact;
  sums[3]! += artifact4;
  sums[4]! += detail;
  sums[5]! += detail4;
}

/** Reads an RGB(A) buffer into linear-light rows, a pixel not opaque over a dark (0) or light (1) page. */
function bytesReader(image: RawImage, background: number): LinearImage {
  const { data, width, height, channels } = image;
  if (data.length !== width * height * channels) throw new RangeError(`expected ${width * height * channels} bytes for ${width}x${height}x${channels}, got ${data.length}`);
  return {
    width,
    height,
    readRow(y, red, green, blue) {
      let i = y * width * channels;
      for (let x = 0; x < width; x++, i += channels) {
        if (channels === 4 && data[i + 3] !== 255) {
          const alpha = data[i + 3]! / 255;
          const under = background * (1 - alpha);
          red[x] = SRGB_TO_LINEAR[data[i]!]! * alpha + under;
          green[x] = SRGB_TO_LINEAR[data[i + 1]!]! * alpha + under;
          blue[x] = SRGB_TO_LINEAR[data[i + 2]!]! * alpha + under;
        } else {
          red[x] = SRGB_TO_LINEAR[data[i]!]!;
          green[x] = SRGB_TO_LINEAR[data[i + 1]!]!;
          blue[x] = SRGB_TO_LINEAR[data[i + 2]!]!;
        }
      }
    },
  };
}

/** Adds row y's quarter share to the next scale's 2x2 box average; an odd last row or column counts twice, as if the edge were repeated. */
function accumulateHalf(plane: Float32Array, row: Float32Array, y: number, width: number, height: number): void {
  const weight = (height & 1) === 1 && y === height - 1 ? 0.5 : 0.25;
  const start = (y >> 1) * ((width + 1) >> 1);
  for (let x = 0; x < width; x++) plane[start + (x >> 1)]! += row[x]! * weight;
  if ((width & 1) === 1) plane[start + (width >> 1)]! += row[width - 1]! * weight;
}
