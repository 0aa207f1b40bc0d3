// SSIMULACRA 2 (Cloudinary, Jon Sneyers 2022), written from its published description:
// sRGB to linear light to XYB (made positive), six scales each halved by a 2x2 box average in
// linear light, and per scale and XYB channel the SSIM error (mean and 4-norm of 1 - SSIM) and
// the edge differences (ringing/blocking "artifact" and blurring "detail lost", mean and
// 4-norm) against local means from a sigma 1.5 Gaussian, combined by the published weights.
// The weights and the final mapping are those of version 2.0, which the npm package
// calc-s2-rust (the reference this module was validated against) computes; 2.1 retuned them.
//
// A quality search scores many candidates against one reference, so the reference side is
// computed once (`prepareReference`): per scale and weighted channel its XYB plane, its local
// mean and its local mean of squares, about 33 bytes per input pixel over all scales (66 MB at
// 2 MP). A candidate then streams through the blur (its recursive form needs the 2r+1 rows
// around the output row, r = 5) with three quantities (b, b*b, a*b) instead of five, so scoring
// one costs O(width) floats plus the next scale's linear RGB (a quarter of the pixels).
//
// The finest scale holds three quarters of that. Above STREAM_FINEST_SCALE_ABOVE pixels (a 12 MP
// reference kept about 380 MB) it is not kept: each candidate streams the reference's finest scale
// beside its own, two more blurred quantities per channel, in the same order of operations, so
// the scores are the same and the reference keeps about 9 bytes a pixel.
import type { RawImage } from "./raw-image.ts";
import { accumulateHalf, hasTransparency, scaleCount } from "./ssimulacra2-image.ts";
import { RADIUS, RING, linearRows, workspaceFor, type RowTriple, type Workspace } from "./ssimulacra2-kernels.ts";
import { WEIGHTS, gaussian, type LinearImage } from "./ssimulacra2-parameters.ts";

type Planes = [Float32Array, Float32Array, Float32Array];

/** The reference's side of one XYB channel at one scale: its values, their local mean and the local mean of their squares. */
interface ReferenceChannel {
  xyb: Float32Array;
  mean: Float32Array;
  square: Float32Array;
}

interface ReferenceScale {
  width: number;
  height: number;
  /** Per XYB channel; null where the channel's weights at this scale are all zero (B at the two finest scales). */
  channels: (ReferenceChannel | null)[];
  /** Set when the scale is not kept: its linear rows, streamed beside each candidate's (`channels` then holds scratch rings of 2r+1 rows, rewritten by every score). */
  streamed: LinearImage | null;
}

/** Pixels above which a prepared reference streams its finest scale instead of keeping it. */
export const STREAM_FINEST_SCALE_ABOVE = 4_000_000;

export interface PrepareOptions {
  /** Keep the finest scale's planes (faster per candidate, about 24 more bytes a pixel); by default only up to STREAM_FINEST_SCALE_ABOVE pixels. */
  keepFinestScale?: boolean;
}

/** A reference image with its side of the metric computed, to score any number of candidates of its size against. */
export class Ssimulacra2Reference {
  readonly width: number;
  readonly height: number;
  readonly #image: RawImage;
  readonly #transparent: boolean;
  readonly #keepFinest: boolean;
  // By background (0 dark, 1 light page); an opaque reference has one.
  readonly #pages: (ReferenceScale[] | undefined)[] = [];

  constructor(image: RawImage, options: PrepareOptions = {}) {
    if (image.width < 8 || image.height < 8) throw new RangeError("SSIMULACRA 2 needs images of at least 8x8 pixels");
    this.width = image.width;
    this.height = image.height;
    this.#image = image;
    this.#transparent = hasTransparency(image);
    this.#keepFinest = options.keepFinestScale ?? image.width * image.height <= STREAM_FINEST_SCALE_ABOVE;
    this.#pages[0] = referenceScales(linearRows(image, 0), this.#keepFinest);
  }

  get transparent(): boolean {
    return this.#transparent;
  }

  /** The reference's scales over a dark (0) or light (1) page, computed on first use. */
  over(background: 0 | 1): ReferenceScale[] {
    if (!this.#transparent) return this.#pages[0]!;
    return (this.#pages[background] ??= referenceScales(linearRows(this.#image, background), this.#keepFinest));
  }

  /** Bytes held beyond the reference's own pixels. */
  get retainedBytes(): number {
    let bytes = 0;
    for (const page of this.#pages) for (const scale of page ?? []) for (const channel of scale.channels) if (channel !== null && scale.streamed === null) bytes += 3 * channel.xyb.byteLength;
    return bytes;
  }
}

/** Computes the reference's side of the metric once, for `scoreAgainst`. */
export function prepareReference(reference: RawImage, options: PrepareOptions = {}): Ssimulacra2Reference {
  return new Ssimulacra2Reference(reference, options);
}

/** SSIMULACRA 2 of `candidate` against a prepared reference: 100 is identical, 90 visually lossless, lower is worse (it can go below 0). */
export function scoreAgainst(reference: Ssimulacra2Reference, candidate: RawImage): number {
  if (reference.width !== candidate.width || reference.height !== candidate.height) {
    throw new RangeError(`images differ in size: ${reference.width}x${reference.height} against ${candidate.width}x${candidate.height}`);
  }
  if (!reference.transparent && !hasTransparency(candidate)) return scoreLinear(reference.over(0), linearRows(candidate, 0));
  // Transparency is judged as it would be seen: over a dark and over a light page, the worse of the two.
  return Math.min(scoreLinear(reference.over(0), linearRows(candidate, 0)), scoreLinear(reference.over(1), linearRows(candidate, 1)));
}

/** SSIMULACRA 2 of one pair; a search scoring several candidates against one reference prepares it once instead. */
export function ssimulacra2(reference: RawImage, candidate: RawImage): number {
  if (reference.width !== candidate.width || reference.height !== candidate.height) {
    throw new RangeError(`images differ in size: ${reference.width}x${reference.height} against ${candidate.width}x${candidate.height}`);
  }
  return scoreAgainst(prepareReference(reference), candidate);
}

function planesReader(planes: Planes, width: number, height: number): LinearImage {
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

/** As published: a further scale is computed while the current one is at least 8x8, however small its half is. */
/** The weights run over the scales computed (fewer for small images), channel by channel. */
function weightsOf(scales: number, channel: number, scale: number): number[] {
  return WEIGHTS.slice((channel * scales + scale) * 6, (channel * scales + scale + 1) * 6);
}

const isWeighted = (scales: number, channel: number, scale: number) => weightsOf(scales, channel, scale).some((weight) => weight !== 0);

function halfSizePlanes(width: number, height: number): Planes {
  const size = ((width + 1) >> 1) * ((height + 1) >> 1);
  return [new Float32Array(size), new Float32Array(size), new Float32Array(size)];
}

/** Adds row y's quarter share to the next scale's 2x2 box average; an odd last row or column counts twice, as if the edge were repeated. */
/** Reads linear row y into the three rows, adding it to the next scale's planes when there is one. */
function readLinearRow(image: LinearImage, y: number, rows: Planes, next: Planes | null): void {
  const [red, green, blue] = rows;
  image.readRow(y, red, green, blue);
  if (next === null) return;
  accumulateHalf(next[0], red, y, image.width, image.height);
  accumulateHalf(next[1], green, y, image.width, image.height);
  accumulateHalf(next[2], blue, y, image.width, image.height);
}

// The filters run in single precision, rounding where the published implementations (C++
// libjxl, Rust rust-av) round: the filters' poles lie on the unit circle, so rounding error builds
// up along a row, and the SSIM terms (local variances are differences of blurred squares) are
// sensitive to it. Computing in double precision moved scores by up to 1.6 from both.
const f32 = Math.fround;
const [N1, N3, N5] = gaussian.n2.map(f32) as [number, number, number];
const [D1, D3, D5] = gaussian.d1.map(f32) as [number, number, number];

/** The horizontal pass of the Gaussian over one row (`width` values from `inAt`) into `output` from `outAt`. */
function blurRow(input: Float32Array, inAt: number, output: Float32Array, outAt: number, width: number): void {
  // Each filter's last output and the one before it.
  let last1 = 0, before1 = 0, last3 = 0, before3 = 0, last5 = 0, before5 = 0;
  for (let n = 1 - RADIUS; n < width; n++) {
    const left = n - RADIUS - 1;
    const right = n + RADIUS - 1;
    const sum = f32((left >= 0 ? input[inAt + left]! : 0) + (right < width ? input[inAt + right]! : 0));
    const out1 = f32(f32(f32(N1 * sum) - before1) - D1 * last1);
    const out3 = f32(f32(f32(N3 * sum) - before3) - D3 * last3);
    const out5 = f32(f32(f32(N5 * sum) - before5) - D5 * last5);
    before1 = last1;
    last1 = out1;
    before3 = last3;
    last3 = out3;
    before5 = last5;
    last5 = out5;
    if (n >= 0) output[outAt + n] = f32(f32(out1 + out3) + out5);
  }
}

/**
 * One step of the vertical pass: the output row from the horizontally blurred rows r + 1 above
 * it and r - 1 below it (zeros outside the image); `state` holds each column's filters' last two
 * outputs (six values a column). The published order of operations differs from the horizontal pass.
 */
function blurColumnsStep(upper: Float32Array, upperAt: number, lower: Float32Array, lowerAt: number, state: Float32Array, output: Float32Array, outAt: number, width: number): void {
  for (let x = 0, s = 0; x < width; x++, s += 6) {
    const sum = f32(upper[upperAt + x]! + lower[lowerAt + x]!);
    const last1 = state[s]!, before1 = state[s + 1]!, last3 = state[s + 2]!, before3 = state[s + 3]!, last5 = state[s + 4]!, before5 = state[s + 5]!;
    const out1 = f32(N1 * sum - f32(D1 * last1 + before1));
    const out3 = f32(N3 * sum - f32(D3 * last3 + before3));
    const out5 = f32(N5 * sum - f32(D5 * last5 + before5));
    state[s] = out1;
    state[s + 1] = last1;
    state[s + 2] = out3;
    state[s + 3] = last3;
    state[s + 4] = out5;
    state[s + 5] = last5;
    output[outAt + x] = f32(f32(out1 + out3) + out5);
  }
}

/** The Gaussian of a whole plane. */
function blurPlane(plane: Float32Array, width: number, height: number): Float32Array {
  const across = new Float32Array(width * height);
  for (let y = 0; y < height; y++) blurRow(plane, y * width, across, y * width, width);
  const out = new Float32Array(width * height);
  const zeros = new Float32Array(width);
  const discarded = new Float32Array(width);
  const state = new Float32Array(width * 6);
  for (let n = 1 - RADIUS; n < height; n++) {
    const top = n - RADIUS - 1;
    const bottom = n + RADIUS - 1;
    blurColumnsStep(top >= 0 ? across : zeros, top >= 0 ? top * width : 0, bottom < height ? across : zeros, bottom < height ? bottom * width : 0, state, n >= 0 ? out : discarded, n >= 0 ? n * width : 0, width);
  }
  return out;
}

function squares(plane: Float32Array): Float32Array {
  const out = new Float32Array(plane.length);
  for (let i = 0; i < plane.length; i++) out[i] = plane[i]! * plane[i]!;
  return out;
}

/** The views of a row triple, as the linear readers fill them (longer than a narrower scale's rows, which use their starts). */
const viewsOf = (rows: RowTriple): Planes => [rows[0].view, rows[1].view, rows[2].view];

/** Converts linear rows to positive XYB rows, `width` pixels from each region's start plus `offset` floats. */
function toPositiveXyb(workspace: Workspace, rows: RowTriple, out: RowTriple, offset: number, width: number): void {
  const at = offset * 4;
  workspace.kernels.toPositiveXyb(rows[0].at, rows[1].at, rows[2].at, out[0].at + at, out[1].at + at, out[2].at + at, width);
}

/** The reference side of every scale: XYB planes and their blurred means and squares, for the weighted channels; the finest scale only as rings to stream into unless kept. */
function referenceScales(image: LinearImage, keepFinest: boolean): ReferenceScale[] {
  const workspace = workspaceFor(image.width);
  const rows = viewsOf(workspace.referenceRows);
  const scales = scaleCount(image.width, image.height);
  const result: ReferenceScale[] = [];
  let current = image;
  for (let scale = 0; scale < scales; scale++) {
    const { width, height } = current;
    const next = scale + 1 < scales ? halfSizePlanes(width, height) : null;
    const weighted = [0, 1, 2].map((channel) => isWeighted(scales, channel, scale));
    if (scale === 0 && !keepFinest) {
      for (let y = 0; y < height && next !== null; y++) readLinearRow(current, y, rows, next);
      const ring = () => new Float32Array(RING * width);
      result.push({ width, height, channels: weighted.map((on) => (on ? { xyb: ring(), mean: ring(), square: ring() } : null)), streamed: current });
      if (next === null) break;
      current = planesReader(next, (width + 1) >> 1, (height + 1) >> 1);
      continue;
    }
    const xyb = weighted.map((on) => (on ? new Float32Array(width * height) : null));
    for (let y = 0; y < height; y++) {
      readLinearRow(current, y, rows, next);
      toPositiveXyb(workspace, workspace.referenceRows, workspace.referenceConverted, 0, width);
      for (let c = 0; c < 3; c++) xyb[c]?.set(workspace.referenceConverted[c]!.view.subarray(0, width), y * width);
    }
    result.push({
      width,
      height,
      channels: xyb.map((plane) => (plane === null ? null : { xyb: plane, mean: blurPlane(plane, width, height), square: blurPlane(squares(plane), width, height) })),
      streamed: null,
    });
    if (next === null) break;
    current = planesReader(next, (width + 1) >> 1, (height + 1) >> 1);
  }
  return result;
}

function scoreLinear(reference: ReferenceScale[], candidate: LinearImage): number {
  const workspace = workspaceFor(candidate.width);
  const scales = reference.length;
  let sum = 0;
  let image = candidate;
  for (let scale = 0; scale < scales; scale++) {
    const { width, height } = image;
    const next = scale + 1 < scales ? halfSizePlanes(width, height) : null;
    const stats = scaleStatistics(workspace, reference[scale]!, image, next);
    for (let channel = 0; channel < 3; channel++) {
      const weights = weightsOf(scales, channel, scale);
      stats[channel]?.forEach((value, i) => (sum += weights[i]! * Math.abs(value)));
    }
    if (next === null) break;
    image = planesReader(next, (width + 1) >> 1, (height + 1) >> 1);
  }
  const distortion = sum * 17.829717797575952 - 1.634169143917183;
  return distortion > 0 ? 100 - 10 * distortion ** 0.5453261009510213 : 100;
}

/**
 * One scale of the candidate: streams its rows top to bottom, converting each to XYB in a ring of
 * 2r+1 rows, blurring b, b*b and a*b horizontally into rings, then vertically, and accumulating
 * the SSIM and edge terms of each output row against the reference's cached side as soon as the
 * row is complete, all in the WebAssembly kernels (the reference's rows are copied into their
 * memory as they are needed). Per weighted channel: [SSIM mean, artifact mean, detail-lost mean,
 * and their 4-norms].
 */
function scaleStatistics(workspace: Workspace, reference: ReferenceScale, candidate: LinearImage, next: Planes | null): (number[] | null)[] {
  const { width, height } = reference;
  const { kernels, rows, xyb, zeros } = workspace;
  const channels = reference.channels.map((channel, c) => (channel === null ? null : { reference: channel, space: workspace.channels[c]! }));
  for (const channel of channels) {
    channel?.space.state.view.fill(0);
    channel?.space.sums.view.fill(0);
  }
  zeros.view.fill(0);
  const streamed = reference.streamed === null ? null : new StreamedReference(workspace, reference.streamed, reference.channels);
  // Where row y of the reference's planes starts: whole planes when kept, rings when streamed.
  const referenceAt = (y: number) => (streamed === null ? y * width : (y % RING) * width);
  // Byte offset of ring slot y's row.
  const slotOf = (y: number) => (y % RING) * width * 4;

  for (let n = 1 - RADIUS; n < height; n++) {
    const bottom = n + RADIUS - 1;
    if (bottom < height) {
      const slot = slotOf(bottom);
      streamed?.readRow(bottom);
      readLinearRow(candidate, bottom, viewsOf(rows), next);
      toPositiveXyb(workspace, rows, xyb, (bottom % RING) * width, width);
      channels.forEach((channel, c) => {
        if (channel === null) return;
        const at = referenceAt(bottom);
        channel.space.referenceXyb.view.set(channel.reference.xyb.subarray(at, at + width), (bottom % RING) * width);
        const [means, squares, crosses] = channel.space.across;
        kernels.blurCandidateRow(channel.space.referenceXyb.at + slot, xyb[c]!.at + slot, means.at + slot, squares.at + slot, crosses.at + slot, width);
      });
    }
    const top = n - RADIUS - 1;
    streamed?.blurColumns(n);
    channels.forEach((channel, c) => {
      if (channel === null) return;
      const { space } = channel;
      const [means, squares, crosses] = space.across;
      const upper = top >= 0 ? slotOf(top) : -1;
      const lower = bottom < height ? slotOf(bottom) : -1;
      const inside = n >= 0;
      if (inside) {
        const at = referenceAt(n);
        space.referenceMean.view.set(channel.reference.mean.subarray(at, at + width));
        space.referenceSquare.view.set(channel.reference.square.subarray(at, at + width));
      }
      const row = inside ? slotOf(n) : 0;
      kernels.blurCandidateColumns(
        upper < 0 ? zeros.at : means.at + upper, upper < 0 ? zeros.at : squares.at + upper, upper < 0 ? zeros.at : crosses.at + upper,
        lower < 0 ? zeros.at : means.at + lower, lower < 0 ? zeros.at : squares.at + lower, lower < 0 ? zeros.at : crosses.at + lower,
        space.state.at, width,
        space.referenceXyb.at + row, space.referenceMean.at, space.referenceSquare.at, xyb[c]!.at + row,
        space.sums.at, inside ? 1 : 0,
      );
    });
  }
  const pixels = width * height;
  return channels.map((channel) => {
    if (channel === null) return null;
    const s = channel.space.sums.view;
    return [s[0]! / pixels, s[2]! / pixels, s[4]! / pixels, (s[1]! / pixels) ** 0.25, (s[3]! / pixels) ** 0.25, (s[5]! / pixels) ** 0.25];
  });
}

/**
 * The reference's side of a scale that is not kept, computed row by row beside a candidate's: its
 * XYB rows, and its local means and squares by the same horizontal and vertical passes (blurRow,
 * blurColumnsStep) that blurPlane runs over a kept plane, into the scale's rings.
 */
class StreamedReference {
  readonly #workspace: Workspace;
  readonly #image: LinearImage;
  readonly #channels: (ReferenceChannel | null)[];
  readonly #square: Float32Array;
  // Per channel: horizontally blurred rings of a and a*a, and the vertical filters' states.
  readonly #across: ({ mean: Float32Array; square: Float32Array; meanState: Float32Array; squareState: Float32Array } | null)[];
  readonly #zeros: Float32Array;
  readonly #discarded: Float32Array;

  constructor(workspace: Workspace, image: LinearImage, channels: (ReferenceChannel | null)[]) {
    const { width } = image;
    this.#workspace = workspace;
    this.#image = image;
    this.#channels = channels;
    this.#square = new Float32Array(width);
    this.#across = channels.map((channel) =>
      channel === null
        ? null
        : { mean: new Float32Array(RING * width), square: new Float32Array(RING * width), meanState: new Float32Array(width * 6), squareState: new Float32Array(width * 6) },
    );
    this.#zeros = new Float32Array(width);
    this.#discarded = new Float32Array(width);
  }

  /** Reads row y: its XYB into the rings' slot for y, and its horizontal passes. */
  readRow(y: number): void {
    const { width } = this.#image;
    const slot = (y % RING) * width;
    const { referenceRows, referenceConverted } = this.#workspace;
    const [red, green, blue] = viewsOf(referenceRows);
    this.#image.readRow(y, red, green, blue);
    toPositiveXyb(this.#workspace, referenceRows, referenceConverted, 0, width);
    this.#channels.forEach((channel, c) => {
      const across = this.#across[c];
      if (channel === null || across == null) return;
      const values = referenceConverted[c]!.view;
      channel.xyb.set(values.subarray(0, width), slot);
      for (let x = 0; x < width; x++) this.#square[x] = values[x]! * values[x]!;
      blurRow(values, 0, across.mean, slot, width);
      blurRow(this.#square, 0, across.square, slot, width);
    });
  }

  /** The vertical passes for output row n (n < 0 only advances the filters), into the rings' slot for n. */
  blurColumns(n: number): void {
    const { width, height } = this.#image;
    const top = n - RADIUS - 1;
    const bottom = n + RADIUS - 1;
    this.#channels.forEach((channel, c) => {
      const across = this.#across[c];
      if (channel === null || across == null) return;
      const upperAt = top >= 0 ? (top % RING) * width : 0;
      const lowerAt = bottom < height ? (bottom % RING) * width : 0;
      const outAt = n >= 0 ? (n % RING) * width : 0;
      blurColumnsStep(top >= 0 ? across.mean : this.#zeros, upperAt, bottom < height ? across.mean : this.#zeros, lowerAt, across.meanState, n >= 0 ? channel.mean : this.#discarded, outAt, width);
      blurColumnsStep(top >= 0 ? across.square : this.#zeros, upperAt, bottom < height ? across.square : this.#zeros, lowerAt, across.squareState, n >= 0 ? channel.square : this.#discarded, outAt, width);
    });
  }
}
