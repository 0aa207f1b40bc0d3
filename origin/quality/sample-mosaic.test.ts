import { describe, expect, it } from "vitest";
import { blockSample, joinTiles, mosaicOf, mosaicTiles, wholeScoreEstimate } from "./sample-mosaic.ts";

/** Every pixel's channels spell its own position and channel, so a moved pixel is seen. */
function positions(width: number, height: number, channels: number) {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) for (let c = 0; c < channels; c++) data[(y * width + x) * channels + c] = (x * 7 + y * 13 + c * 101) & 255;
  return { data, width, height, channels };
}

describe("sample mosaic", () => {
  it("cuts a mosaic into its tiles, each the source's pixels at the tile's place, and joins them back", () => {
    const source = positions(300, 200, 3);
    const mosaic = mosaicOf(source, 32, 3, 2, 16);
    const tiles = mosaicTiles(mosaic, 32);
    expect(tiles).toHaveLength(6);
    // The second tile of the second row is the mosaic's block at (32, 32).
    const tile = tiles[4]!;
    expect([tile.width, tile.height, tile.channels]).toEqual([32, 32, 3]);
    for (const [x, y] of [[0, 0], [31, 5], [17, 31]] as const) {
      const at = (y * 32 + x) * 3;
      const inMosaic = ((32 + y) * mosaic.width + 32 + x) * 3;
      expect([...tile.data.subarray(at, at + 3)]).toEqual([...mosaic.data.subarray(inMosaic, inMosaic + 3)]);
    }
    expect(joinTiles(tiles, mosaic, 32).data).toEqual(mosaic.data);
  });

  it("joins changed tiles where they were cut", () => {
    const mosaic = blockSample(positions(640, 480, 4), 6 * 64 * 64);
    const tiles = mosaicTiles(mosaic, 64).map((tile, index) => ({ ...tile, data: new Uint8Array(tile.data.length).fill(index + 1) }));
    const joined = joinTiles(tiles, mosaic, 64);
    const across = mosaic.width / 64;
    for (let index = 0; index < tiles.length; index++) {
      const x = (index % across) * 64 + 63;
      const y = Math.floor(index / across) * 64 + 63;
      expect(joined.data[(y * mosaic.width + x) * 4]).toBe(index + 1);
    }
  });

  it("estimates a whole output below its sample's score, more so the further from 100", () => {
    for (const format of ["jpeg", "webp", "avif"] as const) {
      expect(wholeScoreEstimate(format, 90)).toBeLessThan(90);
      expect(90 - wholeScoreEstimate(format, 90)).toBeLessThanOrEqual(70 - wholeScoreEstimate(format, 70));
    }
  });
});
