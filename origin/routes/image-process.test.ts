import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { encodeOptionsHeader, ORIGIN_OPTIONS_HEADER, ORIGIN_SECRET_HEADER, readFrame } from "../../contracts/origin/framing.ts";
import { imageProcessEndpoint } from "../../contracts/origin/image-process.ts";
import { createOriginApp } from "../app.ts";

const app = createOriginApp({ secret: "s" });
const photo = await generatedFile("landscape-6.jpg");

function post(body: Uint8Array<ArrayBuffer>, options: unknown) {
  return app.request("/image/process", {
    method: "POST",
    body,
    headers: { [ORIGIN_SECRET_HEADER]: "s", [ORIGIN_OPTIONS_HEADER]: encodeOptionsHeader(options) },
  });
}

describe("POST /image/process", () => {
  it("returns the framed stats and an image that decodes to the reported size", async () => {
    const res = await post(photo, { width: 300, format: "webp" });
    expect(res.status).toBe(200);
    const frame = await readFrame(res.body!, (meta) => imageProcessEndpoint.reply.parse(meta));
    const bytes = new Uint8Array(await new Response(frame.payload).arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(frame.meta.format).toBe("webp");
    expect(meta.format).toBe("webp");
    expect([meta.width, meta.height]).toEqual([frame.meta.width, frame.meta.height]);
    expect(frame.meta.width).toBe(300);
    expect(frame.meta.stats.orientation_applied).toBe(6);
    expect(frame.meta.stats.output_bytes).toBe(bytes.length);
    expect(frame.meta.stats.original_bytes).toBe(photo.length);
  });

  it("validates options with the published schema and names the bad field", async () => {
    const res = await post(photo, { width: -1, shiny: true });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { pointer: string }[] };
    expect(problem.errors.map((e) => e.pointer).sort()).toEqual(["/shiny", "/width"]);
  });

  it("answers a truncated image with a 4xx problem", async () => {
    const res = await post(photo.subarray(0, 2000), {});
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
  });
});
