// An animated source through /v1/image/optimize and /v1/image/batch, end to end: the origin keeps
// its frames and timing, the edge passes the stats on, animated: false gives one frame.
import { describe, expect, it } from "vitest";
import { api, seedCaller, type TestCaller } from "../test-support/api.ts";
import { decodeBase64, encodeBase64 } from "../../contracts/encoding/base64.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { webpFrames } from "../test-support/webp-frames.ts";
import { ANIMATED_FIXTURE } from "../../test/fixtures/animated-fixture.ts";

interface OptimizeReply {
  format: string;
  width: number;
  height: number;
  base64: string;
  stats: { frames: number; duration_ms: number | null; first_frame_only: boolean };
}

function optimize(caller: TestCaller, source: Uint8Array, options: Record<string, unknown>) {
  return api("/v1/image/optimize", { key: caller, json: { source: { base64: encodeBase64(source) }, options: { output: "base64", ...options } } });
}

describe("POST /v1/image/optimize with an animated source", () => {
  it("returns animated WebP with the source's frames and timing, and reports them", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const res = await optimize(caller, await generatedBytes("animated.gif"), { width: 32 });
    expect(res.status).toBe(200);
    const reply = await res.json<OptimizeReply>();
    expect([reply.format, reply.width, reply.height]).toEqual(["webp", 32, 24]);
    const total = ANIMATED_FIXTURE.delay.reduce((sum, ms) => sum + ms, 0);
    expect(reply.stats).toMatchObject({ frames: 4, duration_ms: total, first_frame_only: false });
    const frames = webpFrames(decodeBase64(reply.base64));
    expect(frames.map((f) => f.duration)).toEqual(ANIMATED_FIXTURE.delay);
    expect(frames.every((f) => f.width === 32 && f.height === 24)).toBe(true);
  });

  it("animated: false returns the first frame", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const res = await optimize(caller, await generatedBytes("animated.webp"), { animated: false });
    const reply = await res.json<OptimizeReply>();
    expect([res.status, reply.format, reply.height]).toEqual([200, "webp", ANIMATED_FIXTURE.height]);
    expect(reply.stats).toMatchObject({ frames: 1, duration_ms: null, first_frame_only: true });
    expect(webpFrames(decodeBase64(reply.base64))).toEqual([]);
  });
});

describe("POST /v1/image/batch with an animated source", () => {
  it("keeps one item animated and takes the first frame of another by per_image_options", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const base64 = encodeBase64(await generatedBytes("animated.gif"));
    const res = await api("/v1/image/batch", {
      key: caller,
      json: {
        images: [
          { ref: "moving", source: { base64 } },
          { ref: "still", source: { base64 } },
        ],
        options: { output: "base64" },
        per_image_options: { still: { animated: false } },
      },
    });
    expect(res.status).toBe(200);
    const { results } = await res.json<{ results: (OptimizeReply & { ref: string; status: string })[] }>();
    expect(results.map((r) => [r.ref, r.status, r.format, r.stats.frames])).toEqual([
      ["moving", "ok", "webp", 4],
      ["still", "ok", "png", 1],
    ]);
    expect(webpFrames(decodeBase64(results[0]!.base64)).map((f) => f.duration)).toEqual(ANIMATED_FIXTURE.delay);
  });
});
