import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema, splitTransformBody, type OriginTransformOptions } from "../../contracts/origin/image-transform.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { animatedImage } from "../../test/fixtures/animated-images.ts";
import { overlayOffset } from "./overlay.ts";
import { transformImage } from "./transform-image.ts";

const FILE = "file_watermark1";
const GREY = { r: 128, g: 128, b: 128 };
const RED = { r: 255, g: 0, b: 0 };

const solid = (width: number, height: number, colour: { r: number; g: number; b: number; alpha?: number }, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: colour } }).png().toBuffer();

/** A photo-like base: every pixel differs from its neighbours, so a shifted or rescaled base would show. */
async function gradient(width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = (x * 255) / (width - 1);
      data[i + 1] = (y * 255) / (height - 1);
      data[i + 2] = ((x + y) * 7) % 256;
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

type Overlay = Omit<NonNullable<OriginTransformOptions["overlay"]>, "bytes" | "file_id">;

const transform = (source: Uint8Array, options: Partial<OriginTransformOptions>, mark?: { bytes: Uint8Array } & Partial<Overlay>) => {
  const overlay = mark === undefined ? undefined : { file_id: FILE, bytes: mark.bytes.byteLength, gravity: mark.gravity ?? "center", width: mark.width, opacity: mark.opacity ?? 100 };
  return transformImage(source, originTransformSchema.parse({ quality: 76, output: "png", ...options, overlay }), mark?.bytes ?? null);
};

async function pixels(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, at: (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)] };
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

const inside = (box: Box, x: number, y: number) => x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;

/** Pixels that differ between two same-size images, split by whether they lie in `box`. */
async function changes(plain: Uint8Array, overlaid: Uint8Array, box: Box) {
  const a = await pixels(plain);
  const b = await pixels(overlaid);
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let outside = 0;
  let within = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const same = a.at(x, y).every((v, i) => v === b.at(x, y)[i]);
      if (same) continue;
      if (inside(box, x, y)) within++;
      else outside++;
    }
  }
  return { outside, within };
}

describe("an overlay (l_)", () => {
  it("changes only its corner, and every pixel there is the overlay's", async () => {
    const base = await gradient(200, 100);
    const mark = await solid(40, 20, RED);
    const plain = await transform(base, {});
    const overlaid = await transform(base, {}, { bytes: mark, gravity: "southeast" });
    const box = { left: 160, top: 80, width: 40, height: 20 };
    expect(await changes(plain.bytes, overlaid.bytes, box)).toEqual({ outside: 0, within: 40 * 20 });
    const out = await pixels(overlaid.bytes);
    expect(out.at(160, 80)).toEqual([255, 0, 0]);
    expect(out.at(199, 99)).toEqual([255, 0, 0]);
  });

  it("is placed by its gravity, centred by default", async () => {
    const base = await gradient(200, 100);
    const mark = await solid(40, 20, RED);
    const plain = await transform(base, {});
    const centred = await transform(base, {}, { bytes: mark });
    expect(await changes(plain.bytes, centred.bytes, { left: 80, top: 40, width: 40, height: 20 })).toEqual({ outside: 0, within: 800 });
    const northWest = await transform(base, {}, { bytes: mark, gravity: "northwest" });
    expect(await changes(plain.bytes, northWest.bytes, { left: 0, top: 0, width: 40, height: 20 })).toEqual({ outside: 0, within: 800 });
  });

  it("blends by its opacity", async () => {
    const base = await solid(100, 100, GREY);
    const mark = await solid(20, 20, RED);
    const half = await pixels((await transform(base, {}, { bytes: mark, gravity: "northwest", opacity: 50 })).bytes);
    // 50% of red over grey: (255 + 128) / 2, 128 / 2, 128 / 2.
    half.at(10, 10).forEach((v, i) => expect(Math.abs(v - [191, 64, 64][i]!)).toBeLessThanOrEqual(2));
    expect(half.at(30, 30)).toEqual([128, 128, 128]);
    const faint = await pixels((await transform(base, {}, { bytes: mark, gravity: "northwest", opacity: 10 })).bytes);
    faint.at(10, 10).forEach((v, i) => expect(Math.abs(v - [141, 115, 115][i]!)).toBeLessThanOrEqual(2));
  });

  it("leaves the picture where the overlay is transparent", async () => {
    const base = await gradient(100, 100);
    const clear = await solid(100, 100, { r: 255, g: 0, b: 0, alpha: 0 }, 4);
    const plain = await transform(base, {});
    expect(await changes(plain.bytes, (await transform(base, {}, { bytes: clear })).bytes, { left: 0, top: 0, width: 0, height: 0 })).toEqual({ outside: 0, within: 0 });
  });

  it("is sized by lw_ in percent of the output's width, after the resize, keeping its aspect ratio", async () => {
    const base = await gradient(400, 200);
    const mark = await solid(40, 20, RED);
    const plain = await transform(base, { width: 200 });
    const overlaid = await transform(base, { width: 200 }, { bytes: mark, gravity: "southeast", width: 50 });
    expect([overlaid.width, overlaid.height]).toEqual([200, 100]);
    // 50% of 200 px: 100 x 50, enlarged from 40 x 20.
    expect(await changes(plain.bytes, overlaid.bytes, { left: 100, top: 50, width: 100, height: 50 })).toEqual({ outside: 0, within: 100 * 50 });
  });

  it("is shrunk to fit an output smaller than itself, and lw_ never makes it taller than the output", async () => {
    const base = await gradient(100, 50);
    const tall = await solid(20, 200, RED);
    const plain = await transform(base, {});
    // Its own size would be 20 x 200: shrunk to 5 x 50.
    expect(await changes(plain.bytes, (await transform(base, {}, { bytes: tall, gravity: "east" })).bytes, { left: 95, top: 0, width: 5, height: 50 })).toEqual({ outside: 0, within: 250 });
    // lw_100 asks 100 px wide, which would be 1000 tall: the height caps it at 5 x 50.
    expect(await changes(plain.bytes, (await transform(base, {}, { bytes: tall, gravity: "west", width: 100 })).bytes, { left: 0, top: 0, width: 5, height: 50 })).toEqual({ outside: 0, within: 250 });
  });

  it("goes on a JPEG output over an opaque base, and keeps it opaque", async () => {
    const base = await solid(120, 80, GREY);
    const out = await transform(base, { output: "jpeg" }, { bytes: await solid(30, 30, RED), gravity: "northeast" });
    expect(out.format).toBe("jpeg");
    const read = await pixels(out.bytes);
    expect(read.at(105, 15)[0]).toBeGreaterThan(220);
    expect(read.at(15, 60)[0]).toBeLessThan(140);
    expect((await sharp(out.bytes).metadata()).channels).toBe(3);
  });

  it("is drawn on every frame of an animation", async () => {
    const gif = await animatedImage("gif", { width: 60, height: 40, delay: [100, 100, 100, 100], loop: 0 });
    const out = await transformImage(
      gif,
      originTransformSchema.parse({ quality: 76, output: "source", overlay: { file_id: FILE, bytes: 1, gravity: "northwest", opacity: 100 } }),
      await solid(10, 10, RED),
    );
    const metadata = await sharp(out.bytes, { animated: true }).metadata();
    expect(metadata.pages).toBe(4);
    for (let page = 0; page < 4; page++) {
      const frame = await pixels(await sharp(out.bytes, { page, pages: 1 }).png().toBuffer());
      const [r, g, b] = frame.at(4, 4);
      expect(r).toBeGreaterThan(230);
      expect(g! + b!).toBeLessThan(40);
    }
  });

  it("names the token when its bytes are not an image", async () => {
    const failure = await transform(await gradient(50, 50), {}, { bytes: new TextEncoder().encode("not an image at all") }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProblemError);
    expect((failure as ProblemError).slug).toBe("overlay_unavailable");
    expect((failure as ProblemError).message).toContain(`l_${FILE}`);
  });
});

describe("the transform call's body", () => {
  it("holds the overlay's declared bytes first and the source after them", () => {
    const body = Uint8Array.from([1, 2, 3, 4, 5]);
    const { overlay, source } = splitTransformBody(body, { overlay: { bytes: 2 } });
    expect([...overlay!]).toEqual([1, 2]);
    expect([...source]).toEqual([3, 4, 5]);
    expect(splitTransformBody(body, {})).toEqual({ source: body, overlay: null });
    expect(() => splitTransformBody(body, { overlay: { bytes: 5 } })).toThrow(ProblemError);
  });
});

describe("overlayOffset", () => {
  it("puts each compass name at its edge or corner", () => {
    const frame = { width: 100, height: 60 };
    const mark = { width: 20, height: 10 };
    expect(overlayOffset("northwest", frame, mark)).toEqual({ left: 0, top: 0 });
    expect(overlayOffset("north", frame, mark)).toEqual({ left: 40, top: 0 });
    expect(overlayOffset("east", frame, mark)).toEqual({ left: 80, top: 25 });
    expect(overlayOffset("southeast", frame, mark)).toEqual({ left: 80, top: 50 });
    expect(overlayOffset("southwest", frame, mark)).toEqual({ left: 0, top: 50 });
    expect(overlayOffset("center", frame, mark)).toEqual({ left: 40, top: 25 });
  });
});
