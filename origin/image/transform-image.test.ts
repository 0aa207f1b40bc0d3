import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { generatedFile, type GeneratedFileName } from "../../test/fixtures/generated-files.ts";
import { imageFactsSchema } from "../../contracts/origin/image-facts.ts";
import { originTransformSchema, type OriginTransformOptions } from "../../contracts/origin/image-transform.ts";
import { QUALITY_LEVEL_TARGETS } from "../../contracts/perceptual-quality.ts";
import type { RawImage } from "../quality/raw-image.ts";
import { ssimulacra2 } from "../quality/ssimulacra2.ts";
import { readJpegSegments } from "./test-support/jpeg-markers.ts";
import { transformImage } from "./transform-image.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "source", ...options }));

async function rawRgb(bytes: Uint8Array): Promise<RawImage> {
  const { data, info } = await sharp(bytes).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

/** The mozjpeg table (3 or 5) and quality whose quantisation a JPEG carries; null for neither. */
async function mozjpegTableOf(bytes: Uint8Array): Promise<{ table: number; quality: number } | null> {
  const written = JSON.stringify(readJpegSegments(bytes).quantTables);
  const pixel = () => sharp({ create: { width: 16, height: 16, channels: 3, background: "#808080" } });
  for (const table of [3, 5])
    for (let quality = 1; quality <= 100; quality++) {
      const probe = await pixel().jpeg({ quality, quantisationTable: table, trellisQuantisation: true }).toBuffer();
      if (JSON.stringify(readJpegSegments(new Uint8Array(probe)).quantTables) === written) return { table, quality };
    }
  return null;
}

describe("transformImage", () => {
  it("applies the EXIF orientation, then the clockwise rotation, then sizes the result", async () => {
    // portrait-6 is stored 1800x1200 landscape with orientation 6: upright it is 1200x1800.
    const upright = await run(await generatedFile("portrait-6.jpg"), { width: 300 });
    expect([upright.width, upright.height]).toEqual([300, 450]);
    const turned = await run(await generatedFile("portrait-6.jpg"), { width: 300, rotate: 90 });
    expect([turned.width, turned.height]).toEqual([300, 200]);
    const meta = await sharp(turned.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 300, 200]);
  });

  it("crops to the exact box for cover, content-aware or by gravity, and never enlarges inside", async () => {
    for (const gravity of ["auto", "north", "southwest"] as const) {
      const out = await run(await generatedFile("photo.png"), { width: 200, height: 200, fit: "cover", gravity, output: "webp" });
      expect([out.format, out.width, out.height]).toEqual(["webp", 200, 200]);
    }
    const small = await run(await generatedFile("rgba.png"), { width: 400 });
    expect([small.format, small.width, small.height]).toEqual(["png", 32, 32]);
  });

  it("encodes JPEG derivatives as baseline with 4:2:0 chroma, like the optimize endpoint", async () => {
    const out = await run(await generatedFile("landscape-1.jpg"), { width: 200 });
    const frame = readJpegSegments(out.bytes).frame;
    expect(frame.sofMarker).toBe(0xc0);
    expect(frame.sampling[0]).toEqual({ h: 2, v: 2 });
  });

  it("blurs and sharpens", async () => {
    const source = await generatedFile("photo.png");
    const stdev = async (bytes: Uint8Array) => (await sharp(bytes).stats()).channels[0]!.stdev;
    const plain = await run(source, { width: 300, output: "png" });
    const blurred = await run(source, { width: 300, output: "png", blur: 8 });
    const sharpened = await run(source, { width: 300, output: "png", sharpen: 3 });
    expect(await stdev(blurred.bytes)).toBeLessThan(await stdev(plain.bytes));
    expect(await stdev(sharpened.bytes)).toBeGreaterThan(await stdev(blurred.bytes));
  });

  it("resolves the legacy class by alpha and keeps AVIF sources as AVIF", async () => {
    expect((await run(await generatedFile("rgba.png"), { output: "legacy" })).format).toBe("png");
    expect((await run(await generatedFile("photo.png"), { width: 64, output: "legacy" })).format).toBe("jpeg");
    const avif = await run(await generatedFile("portrait.avif"), { width: 120 });
    expect(avif.format).toBe("avif");
    expect((await sharp(avif.bytes).metadata()).width).toBe(120);
  });

  it("q_auto: encodes at the lowest quality whose output reaches the level's score, higher for a higher level", async () => {
    const source = await generatedFile("photo.png");
    const reference = await rawRgb(await run(source, { width: 480, output: "png" }).then((out) => out.bytes));
    const sizes: number[] = [];
    for (const level of ["eco", "best"] as const) {
      const out = await run(source, { width: 480, output: "jpeg", quality: { auto: level } });
      expect(out.format).toBe("jpeg");
      // Auto JPEG's own table, as /v1/image/optimize's auto writes.
      expect((await mozjpegTableOf(out.bytes))?.table).toBe(5);
      expect(ssimulacra2(reference, await rawRgb(out.bytes))).toBeGreaterThanOrEqual(QUALITY_LEVEL_TARGETS[level]);
      sizes.push(out.bytes.byteLength);
    }
    expect(sizes[1]).toBeGreaterThan(sizes[0]!);
    // A numeric quality keeps mozjpeg's own table: a q_76 derivative matches /v1/image/optimize's quality 76.
    expect(await mozjpegTableOf((await run(source, { width: 480, output: "jpeg", quality: 76 })).bytes)).toEqual({ table: 3, quality: 76 });
    expect(originTransformSchema.safeParse({ quality: { auto: "great" }, output: "jpeg" }).success).toBe(false);
  });

  it("refuses a truncated image with a problem", async () => {
    await expect(run((await generatedFile("landscape-1.jpg")).slice(0, 50_000), { width: 100 })).rejects.toMatchObject({ slug: "image_unreadable" });
  });

  it("makes a trim that cuts nothing the plain transform's bytes, a JPEG's included", async () => {
    // A photo's corner colour recurs nowhere along its edges, so trim_0 finds no border.
    for (const name of ["portrait-6.jpg", "photo.png"] as const) {
      const input = await generatedFile(name);
      const plain = await run(input, { width: 300, blur: 1 });
      const trimmed = await run(input, { width: 300, blur: 1, trim: 0 });
      expect(Buffer.from(trimmed.bytes).equals(Buffer.from(plain.bytes))).toBe(true);
    }
  });
});

describe("transformImage with f_json's facts", () => {
  const factsOf = async (name: GeneratedFileName, options: Partial<OriginTransformOptions> = {}) => {
    const input = await generatedFile(name);
    const made = await run(input, { facts: true, ...options });
    return { input, made, facts: imageFactsSchema.parse(JSON.parse(new TextDecoder().decode(made.bytes))) };
  };

  it("answers sharp's own reading of the source and the size the other options give", async () => {
    const { input, made, facts } = await factsOf("portrait-6.jpg", { width: 300 });
    const meta = await sharp(input).metadata();
    expect(facts).toMatchObject({ width: meta.width, height: meta.height, format: meta.format, orientation: meta.orientation, frames: 1, has_alpha: meta.hasAlpha });
    // Stored 1800x1200 with orientation 6: upright 1200x1800, so 300 wide is 450 high, as the image output is.
    expect(facts.output).toEqual({ width: 300, height: 450 });
    expect([made.format, made.width, made.height]).toEqual(["json", 300, 450]);
    const image = await run(input, { width: 300 });
    expect([image.width, image.height]).toEqual([300, 450]);
  });

  it("counts an animation's frames, says whether there is alpha, and names the colour most pixels share", async () => {
    const animated = await factsOf("animated.gif");
    const meta = await sharp(animated.input, { animated: true }).metadata();
    expect([animated.facts.frames, animated.facts.format]).toEqual([meta.pages, "gif"]);
    expect((await factsOf("rgba.png")).facts.has_alpha).toBe(true);
    // A flat colour's dominant colour is that colour.
    const flat = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 90 } } }).png().toBuffer();
    const made = await run(new Uint8Array(flat), { facts: true, width: 20, height: 20, fit: "cover" });
    expect(JSON.parse(new TextDecoder().decode(made.bytes))).toMatchObject({ width: 40, height: 30, orientation: 1, has_alpha: false, dominant_color: "#c81e5a", output: { width: 20, height: 20 } });
  });
});
