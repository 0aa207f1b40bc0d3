import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import type { Orientation } from "../../test/fixtures/images.ts";
import { autoOrient } from "./auto-orient.ts";
import { inspectSource } from "./decode-limits.ts";
import { runSteps } from "./image-step.ts";
import { pixelDistance } from "./test-support/synthetic-images.ts";

const photo = (name: `${"landscape" | "portrait"}-${Orientation}`) => generatedFile(`${name}.jpg`);

async function orient(name: Parameters<typeof photo>[0], enabled: boolean) {
  const input = await photo(name);
  const source = await inspectSource(input);
  const result = await runSteps(input, source, [autoOrient(enabled)]);
  const { image } = result;
  // Shrinking on load keeps the 16 comparisons fast; the check is on the downscaled picture anyway.
  const { data, info } = await image.resize(300, 300, { fit: "inside" }).png().toBuffer({ resolveWithObject: true });
  return { result, data, info };
}

// The same upright picture stored eight ways, as cameras store it; -1 is stored upright.
describe.each(["landscape", "portrait"] as const)("autoOrient on %s-1..8", (shape) => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8] as const)("orientation %i comes out upright", async (orientation) => {
    const reference = await photo(`${shape}-1`);
    const { result, data, info } = await orient(`${shape}-${orientation}`, true);
    expect(result.orientation_applied).toBe(orientation);
    expect(result.upright).toEqual(shape === "landscape" ? { width: 1800, height: 1200 } : { width: 1200, height: 1800 });
    expect([info.width, info.height]).toEqual(shape === "landscape" ? [300, 200] : [200, 300]);
    expect(await pixelDistance(data, reference)).toBeLessThan(6);
  });
});

describe("autoOrient disabled", () => {
  it("leaves the stored pixels alone, so a rotated example is not upright", async () => {
    const { result, data } = await orient("landscape-6", false);
    expect(result.orientation_applied).toBeNull();
    expect(await pixelDistance(data, await photo("landscape-1"))).toBeGreaterThan(20);
  });
});
