// A WebP candidate handed to a score worker as the encoder wrote it, and decoded there by libwebp
// compiled to WebAssembly (@jsquash/webp). Decoded by sharp, a 345x417 WebP took about 11 ms a
// call where the decoder's own work takes 5.6, paid on every probe of a search, and a sample
// encoded tile by tile paid it per tile (8 tiles of 128 pixels: 15.7 ms against 6.1). Decoded
// in the worker, the pixels are sharp's (webp-candidate.test.ts) and the event loop stays free.
import decodeWebp, { init } from "@jsquash/webp/decode.js";
import type { RawImage } from "./raw-image.ts";
import { joinTiles } from "./sample-mosaic.ts";
import { wasmFromDisk } from "../wasm/wasm-from-disk.ts";

export interface WebpCandidate {
  /** The whole candidate as one file, or the tiles of a mosaic of `tile`-pixel tiles, in row order (sample-mosaic.ts). */
  webp: Uint8Array[];
  tile: number | null;
  width: number;
  height: number;
  /** 3 for RGB, 4 for RGBA: the reference's. */
  channels: 3 | 4;
}

let decoder: Promise<void> | undefined;

/** The decoder, started once per thread. */
function ready(): Promise<void> {
  decoder ??= init(wasmFromDisk("@jsquash/webp/codec/dec/webp_dec.wasm"));
  return decoder;
}

/** The candidate's pixels, as the reference's channels. */
export async function decodeWebpCandidate(candidate: WebpCandidate): Promise<RawImage> {
  await ready();
  const { width, height, channels, tile } = candidate;
  if (tile === null) {
    if (candidate.webp.length !== 1) throw new RangeError(`a whole WebP candidate is one file, not ${candidate.webp.length}`);
    return decodePiece(candidate.webp[0]!, width, height, channels);
  }
  if (candidate.webp.length !== Math.floor(width / tile) * Math.floor(height / tile)) throw new RangeError(`a ${width}x${height} mosaic of ${tile}-pixel tiles is not ${candidate.webp.length} tiles`);
  const tiles = await Promise.all(candidate.webp.map((bytes) => decodePiece(bytes, tile, tile, channels)));
  return { ...joinTiles(tiles, { width, height, channels }, tile), channels };
}

async function decodePiece(bytes: Uint8Array, width: number, height: number, channels: 3 | 4): Promise<RawImage> {
  const decoded = await decodeWebp(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  if (decoded.width !== width || decoded.height !== height) throw new RangeError(`a WebP candidate decoded to ${decoded.width}x${decoded.height}, not ${width}x${height}`);
  const rgba = new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
  if (channels === 4) return { data: rgba, width, height, channels };
  const rgb = new Uint8Array(width * height * 3);
  for (let pixel = 0, from = 0, to = 0; pixel < width * height; pixel++, from += 4, to += 3) {
    rgb[to] = rgba[from]!;
    rgb[to + 1] = rgba[from + 1]!;
    rgb[to + 2] = rgba[from + 2]!;
  }
  return { data: rgb, width, height, channels };
}
