import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readFrame } from "../../contracts/origin/framing.ts";
import { framedResponse } from "./framed-response.ts";

describe("framedResponse", () => {
  it.each([0, 1, 200_000])("frames meta and a %i-byte output so the edge's reader gets both back", async (size) => {
    const output = new Uint8Array(randomBytes(size));
    const res = framedResponse({ format: "webp", width: 7 }, output);
    const length = Number(res.headers.get("Content-Length"));
    const frame = await readFrame<{ format: string; width: number }>(res.body!, length);
    expect(frame.meta).toEqual({ format: "webp", width: 7 });
    expect(frame.payloadLength).toBe(size);
    expect(new Uint8Array(await new Response(frame.payload).arrayBuffer())).toEqual(output);
  });
});
