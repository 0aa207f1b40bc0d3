import { readFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import encodeJxl, { init as initEncoder } from "@jsquash/jxl/encode.js";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { wasmFromDisk } from "../../wasm/wasm-from-disk.ts";
import { jxlToPng } from "./jxl.ts";
import { jxlSize } from "./jxl-size.ts";

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, "../../../test/fixtures/foreign-images", name)));

async function pixelAt(png: Uint8Array, x: number, y: number) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

describe("jxlToPng", () => {
  it("decodes a lossless JPEG XL to exactly its source pixels", async () => {
    const png = await jxlToPng(fixture("quadrants-lossless.jxl"), 100_000_000);
    expect((await sharp(png).metadata()).width).toBe(64);
    expect(await pixelAt(png, 8, 8)).toEqual([220, 30, 30]);
    expect(await pixelAt(png, 56, 8)).toEqual([30, 200, 40]);
    expect(await pixelAt(png, 8, 40)).toEqual([30, 40, 220]);
    expect(await pixelAt(png, 56, 40)).toEqual([250, 250, 250]);
  });

  it("hands back sRGB for a file encoded from Display P3 samples", async () => {
    const [red, green, blue] = await pixelAt(await jxlToPng(fixture("quadrants-p3.jxl"), 100_000_000), 8, 8);
    expect([Math.abs(red! - 220), Math.abs(green! - 30), Math.abs(blue! - 30)].every((difference) => difference <= 6)).toBe(true);
  });

  it("refuses from the header alone an image over the pixel limit, and a damaged file with a 422", async () => {
    await expect(jxlToPng(fixture("quadrants-lossless.jxl"), 64 * 48 - 1)).rejects.toMatchObject({ slug: "image_too_large" });
    const whole = fixture("quadrants-p3.jxl");
    await expect(jxlToPng(whole.subarray(0, 40), 100_000_000)).rejects.toMatchObject({ slug: "image_unreadable", status: 422 });
    await expect(jxlToPng(new Uint8Array([0xff, 0x0a]), 100_000_000)).rejects.toMatchObject({ slug: "image_unreadable" });
  });
});

/** Noise does not compress: decoding it costs libjxl seconds (2 MP: about 2.5 s here). */
async function noiseJxl(side: number): Promise<Uint8Array> {
  await initEncoder(wasmFromDisk("@jsquash/jxl/codec/enc/jxl_enc.wasm"));
  const data = new Uint8ClampedArray(side * side * 4);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2_654_435_761) >>> 24;
  return new Uint8Array(await encodeJxl({ data, width: side, height: side, colorSpace: "srgb" }, { effort: 1, quality: 90 }));
}

describe("jxlToPng off the main thread", () => {
  it("decodes in a worker thread: the event loop never stalls while a costly file decodes", { timeout: 120_000 }, async () => {
    const jxl = await noiseJxl(1_400);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const png = await jxlToPng(jxl, 100_000_000);
    delay.disable();
    expect((await sharp(png).metadata()).width).toBe(1_400);
    expect(delay.max / 1e6).toBeLessThan(1_000);
  });
});

describe("jxlSize", () => {
  it("reads the size of a bare codestream whatever the header's encoding", () => {
    expect(jxlSize(fixture("quadrants-lossless.jxl"))).toEqual({ width: 64, height: 48 });
    expect(jxlSize(fixture("quadrants-p3.jxl"))).toEqual({ width: 64, height: 48 });
  });

  it("reads a large declared size from its U32 fields without decoding", () => {
    // FF 0A, small=0, height-1 in u(30) (selector 3), ratio 0, width-1 in u(30): 100000 x 70000.
    const bits: number[] = [0, 1, 1];
    const push = (value: number, count: number) => {
      for (let i = 0; i < count; i++) bits.push((value >> i) & 1);
    };
    push(70_000 - 1, 30);
    push(0, 3);
    push(3, 2);
    push(100_000 - 1, 30);
    const bytes = new Uint8Array(2 + Math.ceil(bits.length / 8));
    bytes.set([0xff, 0x0a]);
    bits.forEach((bit, i) => (bytes[2 + (i >> 3)]! |= bit << (i & 7)));
    expect(jxlSize(bytes)).toEqual({ width: 100_000, height: 70_000 });
  });

  it("finds the codestream inside the ISO BMFF container", () => {
    const codestream = fixture("quadrants-lossless.jxl");
    const signature = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];
    const box = new Uint8Array(8 + codestream.byteLength);
    new DataView(box.buffer).setUint32(0, box.byteLength);
    box.set([0x6a, 0x78, 0x6c, 0x63], 4);
    box.set(codestream, 8);
    expect(jxlSize(new Uint8Array([...signature, ...box]))).toEqual({ width: 64, height: 48 });
  });
});
