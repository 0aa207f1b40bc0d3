// A sample of an image's pixels: tiles spread evenly over it, laid side by side. Block codecs
// code each tile's blocks as they would in place, so what the sample costs or loses in an
// encode carries over to the whole image. Used to size encodes (pdf/estimate-encoded-size.ts)
// and to score them (image/perceptual-quality.ts, pdf/perceptual-floor.ts), and what a sample's
// score says of the whole image's is here too (wholeScoreEstimate).
import type { ImageOutputFormat } from "../../contracts/image-options.ts";

export type LossyFormat = Exclude<ImageOutputFormat, "png">;

/** Tightly packed 8-bit samples, any channel count. */
export interface PackedPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

// Tiles: 64 pixels square by default, on the 16-pixel grid of JPEG's 4:2:0 blocks and WebP's
// macroblocks, so each tile of the encoded mosaic holds the blocks the full encode makes there.
export const DEFAULT_TILE = 64;
const BLOCK = 16;

/** `across` x `down` tiles of `tile` pixels square, each centred in its share of the image, starting on multiples of `align`. */
export function mosaicOf<T extends PackedPixels>(pixels: T, tile: number, across: number, down: number, align = 1): T {
  const mosaic = { ...pixels, data: new Uint8Array(across * tile * down * tile * pixels.channels), width: across * tile, height: down * tile };
  for (let ty = 0; ty < down; ty++) {
    const y0 = tileStart(ty, down, pixels.height, tile, align);
    for (let tx = 0; tx < across; tx++) copyTile(pixels, tileStart(tx, across, pixels.width, tile, align), y0, mosaic, tx * tile, ty * tile, tile);
  }
  return mosaic;
}

/** The tiles of a mosaic of `tile`-pixel tiles, each an image of its own, in row order. */
export function mosaicTiles<T extends PackedPixels>(mosaic: T, tile: number): T[] {
  const tiles: T[] = [];
  for (let y0 = 0; y0 + tile <= mosaic.height; y0 += tile) {
    for (let x0 = 0; x0 + tile <= mosaic.width; x0 += tile) {
      const piece = { ...mosaic, data: new Uint8Array(tile * tile * mosaic.channels), width: tile, height: tile };
      copyTile(mosaic, x0, y0, piece, 0, 0, tile);
      tiles.push(piece);
    }
  }
  return tiles;
}

/** A mosaic of `mosaic`'s shape that `mosaicTiles` cut into `tiles`, laid back together (the tiles changed, say by an encode). */
export function joinTiles(tiles: readonly PackedPixels[], mosaic: Omit<PackedPixels, "data">, tile: number): PackedPixels {
  const { width, height, channels } = mosaic;
  const joined = { width, height, channels, data: new Uint8Array(width * height * channels) };
  const across = Math.floor(mosaic.width / tile);
  tiles.forEach((piece, index) => copyTile(piece, 0, 0, joined, (index % across) * tile, Math.floor(index / across) * tile, tile));
  return joined;
}

/** Copies the `tile`-pixel square at (fromX, fromY) of `from` to (toX, toY) of `to`; both have the same channels. */
function copyTile(from: PackedPixels, fromX: number, fromY: number, to: PackedPixels, toX: number, toY: number, tile: number): void {
  const rowBytes = tile * from.channels;
  for (let y = 0; y < tile; y++) {
    const start = ((fromY + y) * from.width + fromX) * from.channels;
    to.data.set(from.data.subarray(start, start + rowBytes), ((toY + y) * to.width + toX) * to.channels);
  }
}

/**
 * About `budget` pixels of the image as a mosaic of block-aligned `tile`-pixel tiles in a grid
 * shaped like the image; the image itself when it is no larger than twice the budget (a sample
 * would save too little) or too narrow for two tiles.
 */
export function blockSample<T extends PackedPixels>(pixels: T, budget: number, tile = DEFAULT_TILE): T {
  const { width, height } = pixels;
  if (width * height <= budget * 2 || width < tile * 2 || height < tile * 2) return pixels;
  const tiles = Math.max(1, Math.floor(budget / (tile * tile)));
  const across = Math.max(1, Math.min(Math.floor(width / tile), Math.round(Math.sqrt((tiles * width) / height))));
  const down = Math.max(1, Math.min(Math.floor(height / tile), Math.floor(tiles / across)));
  return mosaicOf(pixels, tile, across, down, BLOCK);
}

function tileStart(index: number, count: number, length: number, tile: number, align: number): number {
  if (align === 1) return Math.floor(((length - tile) * (index + 0.5)) / count);
  const centre = ((index + 0.5) * length) / count;
  return Math.min(Math.floor((length - tile) / align) * align, Math.max(0, Math.round((centre - tile / 2) / align) * align));
}

// A sample scores higher than the whole output it stands for: the whole image's coarse scales
// hold errors a mosaic of small tiles does not (and WebP and AVIF spend bits on a mosaic a little
// differently). Measured at 1600 px on four corpus photos and a generated one at q40-90, the whole
// output's distance from 100 was 1.14 to 1.24 times the sample's for JPEG and 1.18 to 1.5 for AVIF
// between q60 and q80 (64-pixel tiles); nearer 100 the gap stopped shrinking with the distance and
// stayed at up to 7 points (AVIF at q90). WebP's sample is of 128-pixel tiles (its loop filter
// smears the seams of 64-pixel ones, whose score then jumped by 15-35 between neighbouring rungs,
// fox 59 at q73 and 76 at q79); from them the whole output's distance was 1.14 to 1.2 times the
// sample's between q73 and q85 on fox, Landscape_0 and issue19971 #8, within 1.2 of the estimate.
// That held near q80 only: the encoded mosaic jumped by up to 16 between q76 and q82 where the
// whole output moved 5 (Portrait_0: mosaic 64.4 and 80.3, whole 68.7 and 73.8); the likely cause,
// not isolated, is the seams, which libwebp's loop filter works across, harder at lower
// qualities. So auto quality encodes a WebP sample tile by tile (no seams): on the 16 corpus
// image-sizes whose WebP sample is a mosaic, the whole output's distance from 100 was 1.07 to
// 1.36 times the tiles' (median about 1.18) at q70, q76 and q82 alike on the photos, the stretch
// below (origin/quality/README.md has the table). AVIF's stretch was first read off 4:2:0
// (1.18 to 1.5, so 1.5 and a shift of 7.5), but auto quality searches AVIF at 4:4:4 first, whose
// whole output's distance was 1.10 to 1.28 times the sample's on the corpus photos at q46-62 (median
// about 1.2): read at 1.5, every AVIF search's first whole output landed 5 to 8 above its aim and
// took a second one. A 4:2:0 AVIF sample (searched only where 4:4:4 answers high) now reads
// optimistic, and its whole output moves the search up.
// The estimate takes the larger of the stretched distance and the shifted one. Shaded graphics
// stray further (up to 1.7 in JPEG), so auto quality scores its answer whole; PDF floors, for
// time, do so only for low answers and shaded graphics (pdf/perceptual-floor.ts).
const SAMPLE_GAP: Record<LossyFormat, { stretch: number; shift: number }> = {
  jpeg: { stretch: 1.25, shift: 4 },
  webp: { stretch: 1.2, shift: 4 },
  avif: { stretch: 1.2, shift: 4 },
};

/** The whole output's score a sample's score stands for. */
export function wholeScoreEstimate(format: LossyFormat, sampleScore: number): number {
  const { stretch, shift } = SAMPLE_GAP[format];
  const distance = 100 - sampleScore;
  return 100 - Math.max(distance * stretch, distance + shift);
}
