// HEIC, JPEG XL and SVG through the real edge and origin: the edge's sniffing admits them, the
// origin decodes them, the caller gets a decodable image and is charged as for any optimize.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { prices } from "../contracts/pricing.ts";

const edge = inject("edgeUrl");
const auth = { Authorization: `Bearer ${inject("apiKey")}`, "Content-Type": "application/json" };
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures/foreign-images", name));

interface Optimized {
  format: string;
  width: number;
  height: number;
  base64: string;
  stats: { original_format: string; original_bytes: number };
  billing: { charged_micros: number };
}

async function optimize(bytes: Uint8Array, options: Record<string, unknown> = {}) {
  const res = await fetch(`${edge}/v1/image/optimize`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ source: { base64: Buffer.from(bytes).toString("base64") }, options: { output: "base64", ...options } }),
  });
  return { status: res.status, body: await res.json<Optimized & { detail?: string }>() };
}

describe("optimize through the real pair", () => {
  it.each([
    ["a phone's HEIC", "photo.heic", "heic"],
    ["a JPEG XL", "photo.jxl", "jxl"],
  ])("takes %s and answers a JPEG of its size, charged only if it is smaller", async (_, name, format) => {
    const { status, body } = await optimize(fixture(name), { format: "jpeg" });
    expect(status, body.detail).toBe(200);
    expect([body.format, body.width, body.height, body.stats.original_format]).toEqual(["jpeg", 96, 64, format]);
    const output = Buffer.from(body.base64, "base64");
    expect((await sharp(output).metadata()).format).toBe("jpeg");
    expect(body.billing.charged_micros).toBe(output.byteLength < body.stats.original_bytes ? prices.image : 0);
  });

  it("draws an SVG at the asked width into PNG", async () => {
    const svg = new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 2"><rect width="2" height="2" fill="#c02020"/></svg>`);
    const { status, body } = await optimize(svg, { width: 400 });
    expect(status, body.detail).toBe(200);
    expect([body.format, body.width, body.height, body.stats.original_format]).toEqual(["png", 400, 200, "svg"]);
  });

  it("answers a truncated HEIC with a 422 and no charge", async () => {
    const whole = fixture("photo.heic");
    const { status, body } = await optimize(whole.subarray(0, whole.byteLength >> 1));
    expect(status).toBe(422);
    expect(body).not.toHaveProperty("billing");
  });
});
