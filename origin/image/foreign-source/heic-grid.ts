// A phone's HEIC is a grid: the picture cut into tiles (512 px on an iPhone), each an HEVC image,
// and a `grid` item that places them and crops the whole. Debian's ffmpeg decodes HEVC in about
// two thirds of libde265's CPU time and decodes the tiles on several threads; its 5.1 cannot read
// HEIF, so the tiles go to it here as one HEVC stream (Annex B: each tile's parameter sets, then
// its coded picture), and its `tile` filter puts them back in their places. Only a grid read
// whole is taken this way: tiles of one size, no crop or mirror on the grid (a rotation is
// applied after), each tile's bytes in the file; anything else goes to libheif's tool.
import type { Box } from "./heif-boxes.ts";
import { heifItems, type HeifItem } from "./heif-items.ts";

export interface GridPlan {
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  /** The picture: the grid's top-left part, before its rotation. */
  width: number;
  height: number;
  /** The grid's irot: quarter turns anticlockwise. */
  quarterTurns: number;
  /** The tiles in raster order, as one Annex B stream. */
  stream: Uint8Array;
}

const START_CODE = new Uint8Array([0, 0, 0, 1]);
// Properties a grid or tile may carry that change nothing here; a transform not listed sends the file to libheif.
const PASSIVE = new Set(["ispe", "colr", "pixi", "hvcC", "pasp", "irot"]);

const property = (item: HeifItem, type: string): Box | undefined => item.properties.find((box) => box.type === type);

/** hvcC's parameter sets (VPS, SPS, PPS, SEI) as Annex B, and its NAL length field's size. */
function parameterSets(bytes: Uint8Array, hvcC: Box): { sets: Uint8Array[]; lengthSize: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lengthSize = (bytes[hvcC.start + 21]! & 3) + 1;
  const sets: Uint8Array[] = [];
  let at = hvcC.start + 23;
  for (let array = 0, arrays = bytes[hvcC.start + 22]!; array < arrays; array++) {
    const count = view.getUint16(at + 1);
    at += 3;
    for (let i = 0; i < count; i++) {
      const size = view.getUint16(at);
      if (at + 2 + size > hvcC.end) throw new RangeError("hvcC ends inside a parameter set");
      sets.push(START_CODE, bytes.subarray(at + 2, at + 2 + size));
      at += 2 + size;
    }
  }
  return { sets, lengthSize };
}

/**
 * A coded picture's length-prefixed NAL units as Annex B. A tile without a coded slice is refused:
 * ffmpeg's tile filter would fill its place with black where libheif reports the file broken.
 */
function annexB(data: Uint8Array, lengthSize: number): Uint8Array[] {
  const units: Uint8Array[] = [];
  let slices = 0;
  for (let at = 0; at + lengthSize <= data.byteLength; ) {
    let size = 0;
    for (let i = 0; i < lengthSize; i++) size = size * 256 + data[at + i]!;
    at += lengthSize;
    if (at + size > data.byteLength) throw new RangeError("a NAL unit runs past its tile");
    units.push(START_CODE, data.subarray(at, at + size));
    // NAL unit types below 32 are coded slices.
    if (size > 0 && data[at]! >> 1 < 32) slices++;
    at += size;
  }
  if (slices === 0) throw new RangeError("a tile holds no coded slice");
  return units;
}

function dimensions(bytes: Uint8Array, item: HeifItem): [number, number] | null {
  const ispe = property(item, "ispe");
  if (!ispe || ispe.end - ispe.start < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [view.getUint32(ispe.start + 4), view.getUint32(ispe.start + 8)];
}

// The grid item's own bytes: version, flags (bit 0: 32-bit sizes), rows and columns less one, the output size.
function gridLayout(data: Uint8Array): { rows: number; columns: number; width: number; height: number } | null {
  if (data.byteLength < 8 || data[0] !== 0) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const wide = (data[1]! & 1) === 1;
  if (wide && data.byteLength < 12) return null;
  const size = (at: number) => (wide ? view.getUint32(at) : view.getUint16(at));
  return { rows: data[2]! + 1, columns: data[3]! + 1, width: size(4), height: size(wide ? 8 : 6) };
}

/** How to decode the file's primary image as a grid of tiles, or null when it is not one this path takes. */
export function gridPlan(bytes: Uint8Array): GridPlan | null {
  let parsed;
  try {
    parsed = heifItems(bytes);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  const grid = parsed.primary === null ? undefined : parsed.items.get(parsed.primary);
  const layout = grid?.type === "grid" && grid.data ? gridLayout(grid.data) : null;
  if (!grid || !layout || !grid.properties.every((box) => PASSIVE.has(box.type)) || property(grid, "hvcC")) return null;
  const tiles = grid.derivedFrom.map((id) => parsed.items.get(id));
  if (tiles.length !== layout.rows * layout.columns) return null;
  const parts: Uint8Array[] = [];
  let tileSize: [number, number] | null = null;
  for (const tile of tiles) {
    const hvcC = tile && property(tile, "hvcC");
    const size = tile && dimensions(bytes, tile);
    if (!tile || tile.type !== "hvc1" || !tile.data || !hvcC || !size || !tile.properties.every((box) => PASSIVE.has(box.type) && box.type !== "irot")) return null;
    if (tileSize && (tileSize[0] !== size[0] || tileSize[1] !== size[1])) return null;
    tileSize = size;
    try {
      const { sets, lengthSize } = parameterSets(bytes, hvcC);
      parts.push(...sets, ...annexB(tile.data, lengthSize));
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
  }
  // 4:2:0 tiles of even size, so each tile's chroma lands on whole samples; the grid covers the picture.
  if (!tileSize || tileSize[0] % 2 || tileSize[1] % 2) return null;
  const [tileWidth, tileHeight] = tileSize;
  if (layout.width > tileWidth * layout.columns || layout.height > tileHeight * layout.rows || layout.width === 0 || layout.height === 0) return null;
  const irot = property(grid, "irot");
  return { ...layout, tileWidth, tileHeight, quarterTurns: irot && irot.end > irot.start ? bytes[irot.start]! & 3 : 0, stream: Buffer.concat(parts) };
}
