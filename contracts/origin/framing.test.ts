import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { decodeOptionsHeader, encodeOptionsHeader, frameHead, readFrame } from "./framing.ts";

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<number[]> {
  return [...new Uint8Array(await new Response(stream).arrayBuffer())];
}

describe("origin protocol", () => {
  it("round-trips meta and payload however the bytes are chunked", async () => {
    const meta = { stats: { output_bytes: 5, note: "ünïcode" } };
    const metaSchema = z.object({ stats: z.object({ output_bytes: z.number(), note: z.string() }) });
    const whole = new Uint8Array([...frameHead(meta), 1, 2, 3, 4, 5]);
    for (const size of [1, 2, 3, 7, whole.length]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < whole.length; i += size) chunks.push(whole.slice(i, i + size));
      const frame = await readFrame(streamOf(chunks), (value) => metaSchema.parse(value));
      expect(frame.meta).toEqual(meta);
      expect(await collect(frame.payload)).toEqual([1, 2, 3, 4, 5]);
    }
  });

  it("fails loudly on a truncated frame", async () => {
    const head = frameHead({ a: 1 });
    await expect(readFrame(streamOf([head.slice(0, head.length - 2)]), (value) => value)).rejects.toThrow(/truncated/);
  });

  it("rejects a meta its parser refuses, and cancels the rest of the body", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([...frameHead({ width: "wide" }), 9, 9]));
      },
      cancel() {
        cancelled = true;
      },
    });
    const schema = z.object({ width: z.number() });
    await expect(readFrame(body, (value) => schema.parse(value))).rejects.toThrow(z.ZodError);
    expect(cancelled).toBe(true);
  });

  it("carries options through a header as base64 JSON, unicode included", () => {
    const options = { filename: "Überblick €.xlsx", n: 3 };
    const header = encodeOptionsHeader(options);
    expect(header).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(decodeOptionsHeader(header)).toEqual(options);
  });
});
