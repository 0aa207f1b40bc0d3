import { describe, expect, it } from "vitest";
import { frameDigest, frameHead, readFrame } from "./framing.ts";

const meta = { format: "jpeg", width: 3 };
const payload = Uint8Array.from({ length: 5000 }, (_, i) => (i * 37) & 0xff);

function streamOf(bytes: Uint8Array, chunk = 1000): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunk) controller.enqueue(bytes.slice(at, at + chunk));
      controller.close();
    },
  });
}

async function readPayload(body: Uint8Array, integrity: { length: number | null; digest: string | null }): Promise<Uint8Array> {
  const frame = await readFrame(streamOf(body), (m) => m, integrity);
  return new Uint8Array(await new Response(frame.payload).arrayBuffer());
}

describe("a framed reply's length and digest", () => {
  const head = frameHead(meta);
  const whole = new Uint8Array([...head, ...payload]);
  const digest = frameDigest([head, payload]);

  it("hands the payload through when both match what was sent", async () => {
    expect(digest).toMatch(/^sha-256=:[A-Za-z0-9+/]{43}=:$/);
    expect(await readPayload(whole, { length: whole.length, digest })).toEqual(payload);
  });

  it("errors the payload stream, at its end, when one byte of the output was changed on the way", async () => {
    const corrupted = whole.slice();
    corrupted[head.length + 2500]! ^= 0x5a;
    await expect(readPayload(corrupted, { length: whole.length, digest })).rejects.toThrow(/digest/);
  });

  it("errors it when the body ends short of its Content-Length", async () => {
    const cut = whole.slice(0, head.length + 1200);
    await expect(readPayload(cut, { length: whole.length, digest })).rejects.toThrow(/length/);
  });
});
