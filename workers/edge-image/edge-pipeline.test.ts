import { env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import pngWasm from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module";
import resizeWasm from "@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?module";
import { originCompute } from "../origin/origin-client.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { hasFixedQuality, type FixedQualityTransform } from "../../contracts/transform/registry.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import type { OutputFormat } from "../../contracts/transform/token-values.ts";
import { decodePixels } from "./codecs.ts";
import { padImage } from "../test-support/padded-image.ts";
import { EDGE_MAX_SOURCE_BYTES, EDGE_MAX_SOURCE_PIXELS } from "../../contracts/limits/edge-budget.ts";
import { edgeCanTransform, transformAtEdge } from "./edge-pipeline.ts";
import type { Size } from "./geometry.ts";
import { readImageHeader } from "./image-header.ts";
import { imageMezzanineEndpoint } from "../../contracts/origin/image-mezzanine.ts";
import { imageProcessEndpoint } from "../../contracts/origin/image-process.ts";
import { imageTransformEndpoint, originTransformOptions } from "../../contracts/origin/image-transform.ts";
import { installWasmMemoryMeter } from "./wasm-memory-meter.ts";

// Installed before any codec runs in this isolate, so every instance is seen.
const meter = installWasmMemoryMeter();
afterAll(() => meter.uninstall());

const MB = 1024 * 1024;
function op(segment: string): FixedQualityTransform {
  const resolved = resolveTransform(parseTransform(segment));
  if (!hasFixedQuality(resolved)) throw new Error(`${segment} asks for q_auto, which the edge does not make`);
  return resolved;
}
// PNG and resize keep one instance per isolate; the Emscripten codecs get one per call.
const persistentModules = new Set([pngWasm, resizeWasm]);

// The memories a run created (the Emscripten codecs' fresh instances), read right after it.
// `frame`: the original's size when the source is its mezzanine.
async function meteredRun(source: Uint8Array, segment: string, format: OutputFormat, frame?: Size) {
  const before = meter.records().length;
  const header = readImageHeader(source)!;
  expect(edgeCanTransform(header, op(segment), frame), `${JSON.stringify(header)} ${segment}`).toBe(true);
  const output = await transformAtEdge(source, header, op(segment), format, frame);
  const created = meter.records().slice(before).filter((r) => !persistentModules.has(r.module));
  const transientBytes = created.reduce((sum, r) => sum + r.memory.buffer.byteLength, 0);
  return { output, created, transientBytes };
}

// A source of the largest accepted size, made by the origin from a camera-sized photo.
async function viaOrigin(source: Uint8Array, format: "jpeg" | "png" | "webp", width: number): Promise<Uint8Array> {
  const frame = await originCompute(env, imageProcessEndpoint, { body: source, options: { format, quality: 90, width } });
  return new Uint8Array(await new Response(frame.payload).arrayBuffer());
}

describe("edge pipeline", () => {
  it("produces the requested size in the requested format, with the source's pixels", async () => {
    const source = await generatedBytes("photo.png");
    const header = readImageHeader(source)!;
    const output = await transformAtEdge(source, header, op("w_400,h_300,fit_cover"), "webp");
    expect(readImageHeader(output.bytes)).toMatchObject({ format: "webp", width: 400, height: 300 });
    const original = await decodePixels("png", source);
    const derived = await decodePixels("webp", output.bytes);
    // Mean colour survives a cover crop of the middle and a downscale within a few levels.
    const mean = (p: { data: Uint8ClampedArray }, channel: number) => p.data.reduce((s, v, i) => (i % 4 === channel ? s + v : s), 0) / (p.data.length / 4);
    for (const channel of [0, 1, 2]) expect(Math.abs(mean(derived, channel) - mean(original, channel))).toBeLessThan(25);
  });

  it("flattens alpha onto white for JPEG, as the origin does", async () => {
    const translucent = await generatedBytes("rgba.png");
    const header = readImageHeader(translucent)!;
    const edge = await decodePixels("jpeg", (await transformAtEdge(translucent, header, op("w_32,f_jpg"), "jpeg")).bytes);
    const frame = await originCompute(env, imageTransformEndpoint, { body: translucent, options: originTransformOptions(op("w_32,f_jpg"), "jpeg") });
    const origin = await decodePixels("jpeg", new Uint8Array(await new Response(frame.payload).arrayBuffer()));
    let difference = 0;
    for (let i = 0; i < edge.data.length; i++) if (i % 4 !== 3) difference += Math.abs(edge.data[i]! - origin.data[i]!);
    expect(difference / ((edge.data.length / 4) * 3)).toBeLessThan(3);
  });

  it("refuses what it cannot do or cannot afford, so the origin does it", async () => {
    const upright = readImageHeader(await generatedBytes("photo.png"))!;
    expect(edgeCanTransform(upright, op("w_400"))).toBe(true);
    for (const segment of ["w_400,bl_2", "w_400,sh_1", "w_400,r_90", "w_400,h_400,fit_cover,g_auto", "w_400,h_400,fit_contain", "w_1000,h_1000,fit_fill"]) {
      expect(edgeCanTransform(upright, op(segment))).toBe(false);
    }
    expect(edgeCanTransform({ ...upright, orientation: 6 }, op("w_400"))).toBe(false);
    expect(edgeCanTransform({ ...upright, cmyk: true }, op("w_400"))).toBe(false);
    expect(edgeCanTransform(null, op("w_400"))).toBe(false);
    expect(edgeCanTransform(upright, op("w_860"))).toBe(true);
    expect(edgeCanTransform(upright, op("w_900"))).toBe(false);
    const big = readImageHeader(await generatedBytes("landscape-1.jpg"))!;
    expect(big.width * big.height).toBeGreaterThan(EDGE_MAX_SOURCE_PIXELS);
    expect(edgeCanTransform(big, op("w_100"))).toBe(false);
  });

  it("reports a corrupt source as a problem", async () => {
    const source = (await generatedBytes("photo.png")).slice(0, 5000);
    // The header of the whole file refuses it; the decoder, given it anyway, must too.
    expect(readImageHeader(source)).toBeNull();
    await expect(transformAtEdge(source, readImageHeader(source, "start")!, op("w_100"), "jpeg")).rejects.toMatchObject({ slug: "image_unreadable" });
  });
});

describe("edge memory budget", () => {
  // The largest accepted source through the heaviest paths: a photo (1800x1200, 2.16 MP) brought
  // to the pixel budget, then padded to the byte budget, which decoders copy in whole.
  it("keeps WASM memory plus buffers under 100 MB for the largest source it accepts", async () => {
    const photo = await generatedBytes("landscape-1.jpg");
    const atBudget = async (format: "jpeg" | "png" | "webp") => padImage(await viaOrigin(photo, format, 1224), EDGE_MAX_SOURCE_BYTES);
    const [jpeg, png, webp] = await Promise.all([atBudget("jpeg"), atBudget("png"), atBudget("webp")]);
    // The mezzanine the origin makes of the same photo: a q92 4:4:4 JPEG at the source budget.
    const mezzanineFrame = await originCompute(env, imageMezzanineEndpoint, { body: photo, options: {} });
    const mezzanine = padImage(new Uint8Array(await new Response(mezzanineFrame.payload).arrayBuffer()), EDGE_MAX_SOURCE_BYTES);
    expect(readImageHeader(mezzanine)!.width * readImageHeader(mezzanine)!.height).toBeGreaterThan(EDGE_MAX_SOURCE_PIXELS * 0.99);
    const header = readImageHeader(png)!;
    expect(header.width * header.height).toBeLessThanOrEqual(EDGE_MAX_SOURCE_PIXELS);
    expect(header.width * header.height).toBeGreaterThan(EDGE_MAX_SOURCE_PIXELS * 0.99);

    const runs = [
      await meteredRun(png, "w_860", "webp"),
      await meteredRun(png, "w_800", "png"),
      await meteredRun(jpeg, "w_860,q_60", "avif"),
      await meteredRun(webp, "w_700,h_700,fit_cover", "png"),
      await meteredRun(webp, "w_700,h_700,fit_cover,g_west", "jpeg"),
      await meteredRun(jpeg, "w_1000,h_500,fit_fill", "webp"),
      await meteredRun(jpeg, "w_860,q_90", "jpeg"),
      await meteredRun(mezzanine, "w_900,h_550,fit_cover", "webp", mezzanineFrame.meta.original),
      await meteredRun(mezzanine, "w_800", "avif", mezzanineFrame.meta.original),
    ];
    // Every run but PNG to PNG (both persistent) made Emscripten codecs of its own.
    expect(runs.filter((run) => run.created.length > 0)).toHaveLength(runs.length - 1);
    // The PNG and resize instances only grow and are shared by every request of the isolate:
    // the bound is their final size plus the heaviest run's own codecs and buffers.
    const persistent = meter.records().filter((r) => persistentModules.has(r.module));
    expect(new Set(persistent.map((r) => r.module))).toEqual(persistentModules);
    const persistentBytes = persistent.reduce((sum, r) => sum + r.memory.buffer.byteLength, 0);
    const heaviest = Math.max(...runs.map((run) => run.transientBytes + run.output.peakBufferBytes));
    console.log(`edge memory bound: ${persistent.map((r) => (r.memory.buffer.byteLength / MB).toFixed(1)).join(" + ")} = ${(persistentBytes / MB).toFixed(1)} MB persistent + ${(heaviest / MB).toFixed(1)} MB heaviest run`);
    expect(persistentBytes + heaviest).toBeLessThan(100 * MB);
  }, 60_000);
});
