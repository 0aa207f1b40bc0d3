import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { encodeOptionsHeader, ORIGIN_OPTIONS_HEADER, ORIGIN_SECRET_HEADER, readFrame } from "../../contracts/origin/framing.ts";
import { imagePlaceholderEndpoint } from "../../contracts/origin/image-placeholder.ts";
import { createOriginApp } from "../app.ts";

const app = createOriginApp({ secret: "s" });
const png = new Uint8Array(await sharp({ create: { width: 64, height: 40, channels: 3, background: "#2060a0" } }).png().toBuffer());

function post(body: Uint8Array<ArrayBuffer>, options: unknown) {
  return app.request(imagePlaceholderEndpoint.path, {
    method: "POST",
    body,
    headers: { [ORIGIN_SECRET_HEADER]: "s", [ORIGIN_OPTIONS_HEADER]: encodeOptionsHeader(options) },
  });
}

describe("POST /image/placeholder", () => {
  it("answers the placeholder as framed meta with an empty payload", async () => {
    const res = await post(png, {});
    expect(res.status).toBe(200);
    const frame = await readFrame(res.body!, (meta) => imagePlaceholderEndpoint.reply.parse(meta));
    expect(frame.meta).toMatchObject({ width: 64, height: 40, dominant_color: "#2060a0" });
    expect((await new Response(frame.payload).arrayBuffer()).byteLength).toBe(0);
  });

  it("refuses options it does not know and bytes that are not an image", async () => {
    expect((await post(png, { size: 10 })).status).toBe(400);
    const res = await post(new TextEncoder().encode("not an image at all"), {});
    expect(res.status).toBe(415);
  });
});
