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
//
// The scales are computed independently and only their terms are summed, so one lane can compute
// the finest scale while another computes the coarser ones from the same pixels (`ScaleShare`):
// `scaleTerms` gives a share's terms, summed by ssimulacra2-terms.ts.
//
// This module walks the scales and rows and keeps the planes; the per-pixel work (sRGB decoding,
// XYB, both passes of the Gaussian, the SSIM and edge terms) runs in WebAssembly kernels
// (ssimulacra2-kernels.ts, from assembly/), on rows copied into their memory.
import type { RawImage } from "./raw-image.ts";
import { hasTransparency, scaleCount } from "./ssimulacra2-image.ts";
import { RADIUS, RING, linearRows, workspaceFor, type ChannelWorkspace, type RowTriple, type Workspace } from "./ssimulacra2-kernels.ts";
import type { LinearImage } from "./ssimulacra2-parameters.ts";
import { scoreOfTerms, weightsOf, type ScaleShare, type ScaleTerms } from "./ssimulacra2-terms.ts";

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
  /** The scales this reference computes (all by default). */
  share?: ScaleShare;
}

/** A reference image with its side of the metric computed, to score any number of candidates of its size against. */
export class Ssimulacra2Reference {
  readonly width: number;
  readonly height: number;
  readonly #image: RawImage;
  readonly #transparent: boolean;
  readonly share: ScaleShare;
  readonly #keepFinest: boolean;
  // By background (0 dark, 1 light page); an opaque reference has one. A scale outside the share is null.
  readonly #pages: ((ReferenceScale | null)[] | undefined)[] = [];

  constructor(image: RawImage, options: PrepareOptions = {}) {
    if (image.width < 8 || image.height < 8) throw new RangeError("SSIMULACRA 2 needs images of at least 8x8 pixels");
    this.width = image.width;
    this.height = image.height;
    this.#image = image;
    this.#transparent = hasTransparency(image);
    this.#keepFinest = options.keepFinestScale ?? image.width * image.height <= STREAM_FINEST_SCALE_ABOVE;
    this.share = options.share ?? "all";
    this.#pages[0] = referenceScales(linearRows(image, 0), this.#keepFinest, this.share);
  }

  get transparent(): boolean {
    return this.#transparent;
  }

  /** The reference's scales over a dark (0) or light (1) page, computed on first use. */
  over(background: 0 | 1): (ReferenceScale | null)[] {
    if (!this.#transparent) return this.#pages[0]!;
    return (this.#pages[background] ??= referenceScales(linearRows(this.#image, background), this.#keepFinest, this.share));
  }

  /** Bytes held beyond the reference's own pixels. */
  get retainedBytes(): number {
    let bytes = 0;
    for (const page of this.#pages) for (const scale of page ?? []) for (const channel of scale?.channels ?? []) if (channel !== null && scale!.streamed === null) bytes += 3 * channel.xyb.byteLength;
    return bytes;
  }
}

/** Computes the reference's side of the metric once, for `scoreAgainst`. */
export function prepareReference(reference: RawImage, options: PrepareOptions = {}): Ssimulacra2Reference {
  return new Ssimulacra2Reference(reference, options);
}

/** SSIMULACRA 2 of `candidate` against a prepared reference of every scale: 100 is identical, 90 visually lossless, lower is worse (it can go below 0). */
export function scoreAgainst(reference: Ssimulacra2Reference, candidate: RawImage): number {
  if (reference.share !== "all") throw new RangeError(`a reference of the ${reference.share} scales gives terms (scaleTerms), not a score`);
  return scoreOfTerms([scaleTerms(reference, candidate)]);
}

/** The terms of `candidate`'s score at the reference's share of the scales. */
export function scaleTerms(reference: Ssimulacra2Reference, candidate: RawImage): ScaleTerms {
  if (reference.width !== candidate.width || reference.height !== candidate.height) {
    throw new RangeError(`images differ in size: ${reference.width}x${reference.height} against ${candidate.width}x${candidate.height}`);
  }
  if (!reference.transparent && !hasTransparency(candidate)) return [linearTerms(reference.over(0), linearRows(candidate, 0))];
  // Transparency is judged as it would be seen: over a dark and over a light page, the worse of the two.
  return [linearTerms(reference.over(0), linearRows(candidate, 0)), linearTerms(reference.over(1), linearRows(candidate, 1))];
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

const isWeighted = (scales: number, channel: number, scale: number) => weightsOf(scales, channel, scale).some((weight) => weight !== 0);

function halfSizePlanes(width: number, height: number): Planes {
  const size = ((width + 1) >> 1) * ((height + 1) >> 1);
  return [new Float32Array(size), new Float32Array(size), new Float32Array(size)];
}

/**
 * Reads linear row y into the three rows, adding it to the next scale's planes when there is one
 * (the kernels average each pair of rows, and a finished pair is copied into the planes).
 */
function readLinearRow(workspace: Workspace, image: LinearImage, y: number, rows: RowTriple, next: Planes | null): void {
  const [red, green, blue] = viewsOf(rows);
  image.readRow(y, red, green, blue);
  if (next === null) return;
  const { width, height } = image;
  const { kernels, halves } = workspace;
  for (let c = 0; c < 3; c++) kernels.accumulateHalf(halves[c]!.at, rows[c]!.at, y, width, height);
  if ((y & 1) === 0 && y !== height - 1) return;
  const halfWidth = (width + 1) >> 1;
  for (let c = 0; c < 3; c++) next[c]!.set(halves[c]!.view.subarray(0, halfWidth), (y >> 1) * halfWidth);
}

/** The views of a row triple, as the linear readers fill them (longer than a narrower scale's rows, which use their starts). */
const viewsOf = (rows: RowTriple): Planes => [rows[0].view, rows[1].view, rows[2].view];

/** Converts linear rows to positive XYB rows, `width` pixels from each region's start plus `offset` floats. */
function toPositiveXyb(workspace: Workspace, rows: RowTriple, out: RowTriple, offset: number, width: number, withB: boolean): void {
  const at = offset * 4;
  workspace.kernels.toPositiveXyb(rows[0].at, rows[1].at, rows[2].at, out[0].at + at, out[1].at + at, out[2].at + at, width, withB ? 1 : 0);
}

/**
 * The reference side of each scale in the share (null for the others): XYB planes and their
 * blurred means and squares, for the weighted channels; the finest scale only as rings to stream
 * into unless kept. The coarser share still reads the finest scale's rows, to halve them.
 */
function referenceScales(image: LinearImage, keepFinest: boolean, share: ScaleShare): (ReferenceScale | null)[] {
  const workspace = workspaceFor(image.width);
  const rows = workspace.referenceRows;
  const allScales = scaleCount(image.width, image.height);
  const scales = share === "finest" ? 1 : allScales;
  const result: (ReferenceScale | null)[] = [];
  let current = image;
  for (let scale = 0; scale < scales; scale++) {
    const { width, height } = current;
    const next = scale + 1 < scales ? halfSizePlanes(width, height) : null;
    const weighted = [0, 1, 2].map((channel) => isWeighted(allScales, channel, scale));
    // The finest scale outside the share, or streamed beside each candidate: its rows are read only to be halved.
    if (scale === 0 && (share === "coarser" || !keepFinest)) {
      for (let y = 0; y < height && next !== null; y++) readLinearRow(workspace, current, y, rows, next);
      const ring = () => new Float32Array(RING * width);
      result.push(share === "coarser" ? null : { width, height, channels: weighted.map((on) => (on ? { xyb: ring(), mean: ring(), square: ring() } : null)), streamed: current });
      if (next === null) break;
      current = planesReader(next, (width + 1) >> 1, (height + 1) >> 1);
      continue;
    }
    const plane = () => new Float32Array(width * height);
    const channels = weighted.map((on) => (on ? { xyb: plane(), mean: plane(), square: plane() } : null));
    const blurs = weighted.map((on, c) => (on ? new ReferenceBlur(workspace, c, width, height) : null));
    for (let n = 1 - RADIUS; n < height; n++) {
      const bottom = n + RADIUS - 1;
      if (bottom < height) {
        readLinearRow(workspace, current, bottom, rows, next);
        toPositiveXyb(workspace, rows, workspace.referenceConverted, 0, width, weighted[2]!);
        for (let c = 0; c < 3; c++) channels[c]?.xyb.set(workspace.referenceConverted[c]!.view.subarray(0, width), bottom * width);
        blurAcross(workspace, blurs, bottom, workspace.referenceConverted);
      }
      for (let c = 0; c < 3; c++) {
        const blur = blurs[c];
        if (blur == null) continue;
        blur.down(n);
        if (n >= 0) {
          channels[c]!.mean.set(blur.mean, n * width);
          channels[c]!.square.set(blur.square, n * width);
        }
      }
    }
    result.push({ width, height, channels, streamed: null });
    if (next === null) break;
    current = planesReader(next, (width + 1) >> 1, (height + 1) >> 1);
  }
  return result;
}

/** The candidate's terms at each scale the reference computes, halving its rows down to the last of them. */
function linearTerms(reference: (ReferenceScale | null)[], candidate: LinearImage): (number[] | null)[][] {
  const workspace = workspaceFor(candidate.width);
  const scales = scaleCount(candidate.width, candidate.height);
  const terms: (number[] | null)[][] = [];
  let image = candidate;
  for (let scale = 0; scale < scales; scale++) {
    const { width, height } = image;
    const next = scale + 1 < reference.length ? halfSizePlanes(width, height) : null;
    const prepared = reference[scale] ?? null;
    if (prepared === null) {
      if (next !== null) for (let y = 0; y < height; y++) readLinearRow(workspace, image, y, workspace.rows, next);
      terms.push([null, null, null]);
    } else {
      terms.push(scaleStatistics(workspace, prepared, image, next));
    }
    if (next === null) {
      while (terms.length < scales) terms.push([null, null, null]);
      break;
    }
    image = planesReader(next, (width + 1) >> 1, (height + 1) >> 1);
  }
  return terms;
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
      readLinearRow(workspace, candidate, bottom, rows, next);
      toPositiveXyb(workspace, rows, xyb, (bottom % RING) * width, width, reference.channels[2] !== null);
      for (let c = 0; c < 3; c++) {
        const channel = channels[c];
        if (channel == null) continue;
        const at = referenceAt(bottom);
        channel.space.referenceXyb.view.set(channel.reference.xyb.subarray(at, at + width), (bottom % RING) * width);
        const [means, squares, crosses] = channel.space.across;
        kernels.blurCandidateRow(channel.space.referenceXyb.at + slot, xyb[c]!.at + slot, means.at + slot, squares.at + slot, crosses.at + slot, width, workspace.kernelScratch.at);
      }
    }
    const top = n - RADIUS - 1;
    streamed?.blurColumns(n);
    for (let c = 0; c < 3; c++) {
      const channel = channels[c];
      if (channel == null) continue;
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
        space.sums.at, inside ? 1 : 0, n, workspace.kernelScratch.at,
      );
    }
  }
  const pixels = width * height;
  return channels.map((channel) => {
    if (channel === null) return null;
    const s = channel.space.sums.view;
    return [s[0]! / pixels, s[2]! / pixels, s[4]! / pixels, (s[1]! / pixels) ** 0.25, (s[3]! / pixels) ** 0.25, (s[5]! / pixels) ** 0.25];
  });
}

/**
 * The local means and mean squares of one channel of the reference at one scale, streamed through
 * the kernels: each XYB row goes through the horizontal passes into rings, and each output row
 * comes out of the vertical passes once the r - 1 rows below it are in.
 */
class ReferenceBlur {
  readonly #workspace: Workspace;
  readonly #space: ChannelWorkspace;
  readonly #width: number;
  readonly #height: number;

  constructor(workspace: Workspace, channel: number, width: number, height: number) {
    this.#workspace = workspace;
    this.#space = workspace.channels[channel]!;
    this.#width = width;
    this.#height = height;
    for (const state of this.#space.referenceState) state.view.fill(0);
  }

  get width(): number {
    return this.#width;
  }

  /** Where row y's horizontal passes go: the byte offsets of its values' and its squares' ring rows. */
  acrossRows(y: number): [number, number] {
    const slot = (y % RING) * this.#width * 4;
    const [means, squares] = this.#space.referenceAcross;
    return [means.at + slot, squares.at + slot];
  }

  /** Row y's horizontal passes (values and squares), from its XYB row at byte offset `xybAt`. */
  across(y: number, xybAt: number): void {
    const [means, squares] = this.acrossRows(y);
    // The candidate's horizontal pass with the reference as both images: its b and b*b lanes are the values and squares.
    this.#workspace.kernels.blurCandidateRow(xybAt, xybAt, means, squares, this.#space.referenceScratch.at, this.#width, this.#workspace.kernelScratch.at);
  }

  /** The vertical passes for output row n (n < 0 only advances the filters), into `mean` and `square`. */
  down(n: number): void {
    const width = this.#width;
    const top = n - RADIUS - 1;
    const bottom = n + RADIUS - 1;
    const { zeros } = this.#workspace;
    this.#space.referenceAcross.forEach((ring, q) => {
      const upper = top >= 0 ? ring.at + (top % RING) * width * 4 : zeros.at;
      const lower = bottom < this.#height ? ring.at + (bottom % RING) * width * 4 : zeros.at;
      this.#workspace.kernels.blurColumns(upper, lower, this.#space.referenceState[q]!.at, this.#space.referenceBlurred[q]!.at, width, n);
    });
  }

  get mean(): Float32Array {
    return this.#space.referenceBlurred[0].view.subarray(0, this.#width);
  }

  get square(): Float32Array {
    return this.#space.referenceBlurred[1].view.subarray(0, this.#width);
  }
}

/**
 * Row y's horizontal passes for each channel that has a blur, from its XYB row in `converted`: two
 * channels a kernel call (their values and squares fill its four lanes), a channel left over alone.
 */
function blurAcross(workspace: Workspace, blurs: (ReferenceBlur | null)[], y: number, converted: RowTriple): void {
  let waiting = -1;
  for (let c = 0; c < blurs.length; c++) {
    const blur = blurs[c];
    if (blur == null) continue;
    if (waiting < 0) {
      waiting = c;
      continue;
    }
    const [firstMeans, firstSquares] = blurs[waiting]!.acrossRows(y);
    const [secondMeans, secondSquares] = blur.acrossRows(y);
    workspace.kernels.blurReferenceRows(converted[waiting]!.at, converted[c]!.at, firstMeans, firstSquares, secondMeans, secondSquares, blur.width, workspace.kernelScratch.at);
    waiting = -1;
  }
  if (waiting >= 0) blurs[waiting]!.across(y, converted[waiting]!.at);
}

/** The reference's side of a scale that is not kept, computed row by row beside a candidate's into the scale's rings. */
class StreamedReference {
  readonly #workspace: Workspace;
  readonly #image: LinearImage;
  readonly #channels: (ReferenceChannel | null)[];
  readonly #blurs: (ReferenceBlur | null)[];

  constructor(workspace: Workspace, image: LinearImage, channels: (ReferenceChannel | null)[]) {
    this.#workspace = workspace;
    this.#image = image;
    this.#channels = channels;
    this.#blurs = channels.map((channel, c) => (channel === null ? null : new ReferenceBlur(workspace, c, image.width, image.height)));
  }

  /** Reads row y: its XYB into the rings' slot for y, and its horizontal passes. */
  readRow(y: number): void {
    const { width } = this.#image;
    const { referenceRows, referenceConverted } = this.#workspace;
    const [red, green, blue] = viewsOf(referenceRows);
    this.#image.readRow(y, red, green, blue);
    toPositiveXyb(this.#workspace, referenceRows, referenceConverted, 0, width, this.#channels[2] !== null);
    this.#channels.forEach((channel, c) => channel?.xyb.set(referenceConverted[c]!.view.subarray(0, width), (y % RING) * width));
    blurAcross(this.#workspace, this.#blurs, y, referenceConverted);
  }

  /** The vertical passes for output row n (n < 0 only advances the filters), into the rings' slot for n. */
  blurColumns(n: number): void {
    const { width } = this.#image;
    this.#channels.forEach((channel, c) => {
      if (channel === null) return;
      const blur = this.#blurs[c]!;
      blur.down(n);
      if (n < 0) return;
      channel.mean.set(blur.mean, (n % RING) * width);
      channel.square.set(blur.square, (n % RING) * width);
    });
  }
}
