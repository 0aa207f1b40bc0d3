// Which HEIC files the grid path takes, and the stream it hands ffmpeg. Inputs from Debian's
// heif-enc, assembled into a phone's grid by heic-fixtures (its grid bytes in idat, as an iPhone's).
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { gridHeic, heifEnc, heifEncPresent } from "../test-support/heic-fixtures.ts";
import { photoLikePixels } from "../test-support/synthetic-images.ts";
import { gridPlan } from "./heic-grid.ts";
import { heifItems } from "./heif-items.ts";

if (!heifEncPresent()) throw new Error("These tests need Debian's libheif-examples (heif-enc): apt-get install -y libheif-examples (.ci/run does).");

const png = async (width: number, height: number) => new Uint8Array(await sharp(photoLikePixels(width, height), { raw: { width, height, channels: 3 } }).png().toBuffer());

/** NAL unit types in an Annex B stream, in order. */
function nalTypes(stream: Uint8Array): number[] {
  const types: number[] = [];
  for (let at = 0; at + 4 < stream.byteLength; at++) {
    if (stream[at] === 0 && stream[at + 1] === 0 && stream[at + 2] === 0 && stream[at + 3] === 1) types.push((stream[at + 4]! >> 1) & 0x3f);
  }
  return types;
}

describe("gridPlan", () => {
  it("reads a phone's grid: its tiles, the picture they are cropped to, and each tile's parameter sets before its picture", async () => {
    const plan = gridPlan(await gridHeic(await png(300, 200), { tile: 128 }));
    expect(plan && { ...plan, stream: undefined }).toEqual({ columns: 3, rows: 2, tileWidth: 128, tileHeight: 128, width: 300, height: 200, quarterTurns: 0, stream: undefined });
    // VPS (32), SPS (33), PPS (34), then the tile's coded slices (IDR 19/20 or other VCL < 32), six times.
    const types = nalTypes(plan!.stream);
    expect(types.filter((type) => type === 32)).toHaveLength(6);
    expect(types.slice(0, 3)).toEqual([32, 33, 34]);
    expect(types[3]).toBeLessThan(32);
  });

  it("reads the grid's rotation in quarter turns anticlockwise", async () => {
    expect(gridPlan(await gridHeic(await png(128, 64), { tile: 64, orientation: 6 }))?.quarterTurns).toBe(3);
    expect(gridPlan(await gridHeic(await png(128, 64), { tile: 64, orientation: 8 }))?.quarterTurns).toBe(1);
  });

  it("leaves a grid with a tile that holds no coded slice to libheif's tool, which reports it, rather than let ffmpeg fill it with black", async () => {
    const grid = new Uint8Array(await gridHeic(await png(128, 64), { tile: 64 }));
    expect(gridPlan(grid)).not.toBeNull();
    // The first tile's NAL units (4-byte lengths) relabelled as SEI (type 39): no slice left.
    const tile = heifItems(grid).items.get(1)!.data!;
    for (let at = 0; at + 4 < tile.byteLength; at += 4 + new DataView(tile.buffer, tile.byteOffset + at).getUint32(0)) tile[at + 4] = 39 << 1;
    expect(gridPlan(grid)).toBeNull();
  });

  it("leaves a single image, a damaged grid and what is not HEIF to libheif's tool", async () => {
    expect(gridPlan(heifEnc([await png(64, 64)]))).toBeNull();
    const grid = await gridHeic(await png(128, 64), { tile: 64 });
    expect(gridPlan(grid.subarray(0, 600))).toBeNull();
    expect(gridPlan(new TextEncoder().encode("not a heic"))).toBeNull();
  });
});
