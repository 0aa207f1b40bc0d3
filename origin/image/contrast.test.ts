import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { luminanceStats, transformedRgb } from "./test-support/colour-pixels.ts";

describe("ct_: contrast about mid-grey", () => {
  it("widens the luminance's spread above 0, narrows it below, and flattens it to grey at -100", async () => {
    const photo = await generatedFile("photo.png");
    const plain = luminanceStats(await transformedRgb(photo, {}));
    const more = luminanceStats(await transformedRgb(photo, { contrast: 40 }));
    const less = luminanceStats(await transformedRgb(photo, { contrast: -40 }));
    expect(more.deviation).toBeGreaterThan(plain.deviation * 1.3);
    expect(less.deviation).toBeLessThan(plain.deviation * 0.7);
    const flat = new Set(await transformedRgb(photo, { contrast: -100 }));
    expect(flat.size).toBe(1);
    expect(Math.abs([...flat][0]! - 127.5)).toBeLessThan(1);
  });
});
