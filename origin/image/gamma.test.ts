import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema } from "../../contracts/origin/image-transform.ts";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { ANIMATED_FIXTURE, FRAME_COLOURS } from "../../test/fixtures/animated-fixture.ts";
import { gammaTable } from "./gamma.ts";
import { transformedRgb } from "./test-support/colour-pixels.ts";
import { transformImage } from "./transform-image.ts";

/** Black, mid-grey and white, each 4 px wide, 2 px high. */
const ramp = () => {
  const data = Buffer.alloc(12 * 2 * 3);
  for (let i = 0; i < 24; i++) data.fill([0, 128, 255][Math.floor((i % 12) / 4)]!, i * 3, i * 3 + 3);
  return sharp(data, { raw: { width: 12, height: 2, channels: 3 } }).png().toBuffer();
};

describe("gam_: gamma on the mid-tones", () => {
  it("lightens the mid-tones above 1 and darkens them below, black and white staying", async () => {
    const lighter = await transformedRgb(await ramp(), { gamma: 2 });
    expect([lighter[0], lighter[4 * 3], lighter[8 * 3]]).toEqual([0, 181, 255]);
    const darker = await transformedRgb(await ramp(), { gamma: 0.5 });
    expect([darker[0], darker[4 * 3], darker[8 * 3]]).toEqual([0, 64, 255]);
  });

  it("maps every frame of a kept animation, which stays animated", async () => {
    const lighter = await transformImage(await generatedFile("animated.gif"), originTransformSchema.parse({ quality: 76, output: "source", gamma: 2 }));
    const { data, info } = await sharp(lighter.bytes, { animated: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.height).toBe(ANIMATED_FIXTURE.height * FRAME_COLOURS.length);
    const table = gammaTable(2);
    FRAME_COLOURS.forEach((colour, frame) => {
      const centre = ((frame * ANIMATED_FIXTURE.height + ANIMATED_FIXTURE.height / 2) * info.width + info.width / 2) * 3;
      // Lossy WebP frames: within a few levels of each frame's colour through the table (160 -> 202, 200 -> 226).
      colour.forEach((value, c) => expect(Math.abs(data[centre + c]! - table[value]!), `frame ${frame} channel ${c}`).toBeLessThanOrEqual(4));
    });
  });
});
