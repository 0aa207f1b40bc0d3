import { randomBytes } from "node:crypto";
import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { readFrame } from "../../contracts/origin/framing.ts";
import { framedResponse } from "./framed-response.ts";

const endpoint = { path: "/test", reply: z.object({ format: z.string(), width: z.number().int() }) };

describe("framedResponse", () => {
  it.each([0, 1, 200_000])("frames meta and a %i-byte output so the edge's reader gets both back", async (size) => {
    const output = new Uint8Array(randomBytes(size));
    const res = framedResponse(endpoint, { format: "webp", width: 7 }, output);
    const length = Number(res.headers.get("Content-Length"));
    const frame = await readFrame(res.body!, (meta) => endpoint.reply.parse(meta), { length, digest: res.headers.get("Content-Digest") });
    expect(frame.meta).toEqual({ format: "webp", width: 7 });
    expect(frame.payloadLength).toBe(size);
    expect(new Uint8Array(await new Response(frame.payload).arrayBuffer())).toEqual(output);
  });

  it("sends only what the reply schema declares, and refuses a meta outside it", () => {
    const res = framedResponse(endpoint, { format: "webp", width: 7, internal: "x" } as z.input<typeof endpoint.reply>, new Uint8Array(0));
    expect(res.headers.get("Content-Length")).toBe(String(4 + JSON.stringify({ format: "webp", width: 7 }).length));
    expect(() => framedResponse(endpoint, { format: "webp", width: 7.5 }, new Uint8Array(0))).toThrow(z.ZodError);
  });
});
