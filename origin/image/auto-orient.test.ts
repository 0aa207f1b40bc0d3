import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { autoOrient } from "./auto-orient.ts";
import { inspectSource, openSource } from "./decode-limits.ts";
import { pixelDistance } from "./test-support/synthetic-images.ts";

const corpus = (name: string) => readFile(path.resolve(`../shared/corpus/img/exif-orientation/${name}.jpg`));

async function orient(name: string, enabled: boolean) {
  const input = await corpus(name);
  const source = await inspectSource(input);
  const image = openSource(input);
  const result = autoOrient(image, source, source.orientation, enabled);
  // Shrinking on load keeps the 16 comparisons fast; the check is on the downscaled picture anyway.
  const { data, info } = await image.resize(300, 300, { fit: "inside" }).png().toBuffer({ resolveWithObject: true });
  return { result, data, info };
}

// The corpus draws the same upright picture stored eight ways; _1 is stored upright.
describe.each(["Landscape", "Portrait"])("autoOrient on %s_1..8", (shape) => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])("orientation %i comes out upright", async (orientation) => {
    const reference = await corpus(`${shape}_1`);
    const { result, data, info } = await orient(`${shape}_${orientation}`, true);
    expect(result.orientation_applied).toBe(orientation);
    expect(result.size).toEqual(shape === "Landscape" ? { width: 1800, height: 1200 } : { width: 1200, height: 1800 });
    expect([info.width, info.height]).toEqual(shape === "Landscape" ? [300, 200] : [200, 300]);
    expect(await pixelDistance(data, reference)).toBeLessThan(6);
  });
});

describe("autoOrient disabled", () => {
  it("leaves the stored pixels alone, so a rotated example is not upright", async () => {
    const { result, data } = await orient("Landscape_6", false);
    expect(result.orientation_applied).toBeNull();
    expect(await pixelDistance(data, await corpus("Landscape_1"))).toBeGreaterThan(20);
  });
});
