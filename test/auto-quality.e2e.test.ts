import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { QUALITY_LEVEL_TARGETS } from "../contracts/perceptual-quality.ts";
import type { RawImage } from "../origin/quality/raw-image.ts";
import { ssimulacra2 } from "../origin/quality/ssimulacra2.ts";
import { photoLikePixels } from "../origin/image/test-support/synthetic-images.ts";

// quality: "auto:eco" through the real edge and origin: the edge accepts it, the origin searches
// the quality, and the stats it reports (score, level) reach the caller; the output, decoded,
// scores what they say.
const edge = inject("edgeUrl");
const auth = { Authorization: `Bearer ${inject("apiKey")}`, "Content-Type": "application/json" };

const width = 480;
const height = 360;
const pixels = photoLikePixels(width, height, 7);
const source = new Uint8Array(await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer());
const reference: RawImage = { data: new Uint8Array(pixels), width, height, channels: 3 };

async function post(path: string, body: unknown) {
  const res = await fetch(`${edge}${path}`, { method: "POST", headers: auth, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json<Record<string, unknown>>() };
}

async function decoded(base64: string): Promise<RawImage> {
  const { data, info } = await sharp(Buffer.from(base64, "base64")).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

interface AutoResult {
  format: string;
  base64: string;
  stats: { quality: number; score: number; quality_level: string; quality_target: number; target_met: boolean; encodes: number };
}

describe("quality auto through the edge", () => {
  it("optimize: the output scores at least the eco target, as stats.score says", async () => {
    const answer = await post("/v1/image/optimize", { source: { base64: Buffer.from(source).toString("base64") }, options: { format: "jpeg", quality: "auto:eco", output: "base64" } });
    expect(answer.status).toBe(200);
    const result = answer.body as unknown as AutoResult;
    expect(result.stats.quality_level).toBe("eco");
    expect([result.stats.quality_target, result.stats.target_met]).toEqual([QUALITY_LEVEL_TARGETS.eco, true]);
    expect(result.stats.score).toBeGreaterThanOrEqual(QUALITY_LEVEL_TARGETS.eco);
    expect(ssimulacra2(reference, await decoded(result.base64))).toBeGreaterThanOrEqual(QUALITY_LEVEL_TARGETS.eco);
  });

  it("batch: each item carries its auto quality and score", async () => {
    const answer = await post("/v1/image/batch", {
      images: [{ ref: "photo", source: { base64: Buffer.from(source).toString("base64") } }],
      options: { format: "webp", quality: "auto", output: "base64" },
    });
    expect(answer.status).toBe(200);
    const [item] = answer.body.results as ({ status: string } & AutoResult)[];
    expect(item!.status).toBe("ok");
    expect(item!.stats.quality_level).toBe("good");
    expect([item!.stats.quality_target, item!.stats.target_met]).toEqual([QUALITY_LEVEL_TARGETS.good, true]);
    expect(ssimulacra2(reference, await decoded(item!.base64))).toBeGreaterThanOrEqual(QUALITY_LEVEL_TARGETS.good);
  });

  it("refuses an unknown level with a problem naming quality", async () => {
    const answer = await post("/v1/image/optimize", { source: { base64: Buffer.from(source).toString("base64") }, options: { quality: "auto:great" } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("quality");
  });
});
