// Animated originals through URL transforms: always made at the origin (the edge runs no frame
// loop), kept animated as WebP, first frame with anim_false. Frames and timing are read back from
// the WebP's own chunks (no decoder for animated WebP runs in workerd).
import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { api, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { CHROME_ACCEPT, seedSource, transformUrl } from "../test-support/transform-requests.ts";
import { webpFrames } from "../test-support/webp-frames.ts";
import { ANIMATED_FIXTURE } from "../../test/fixtures/animated-fixture.ts";

async function seed(caller: TestCaller, name: "animated.gif" | "animated.webp"): Promise<string> {
  return seedSource(caller, await generatedBytes(name), name.endsWith(".gif") ? "image/gif" : "image/webp");
}

describe("GET /v1/image/t/... of an animated original", () => {
  it.each(["animated.gif", "animated.webp"] as const)("%s: made at the origin as animated WebP with the same frames and timing, f_auto included", async (name) => {
    const caller = await seedCaller();
    const fileId = await seed(caller, name);
    for (const transform of ["w_32", "w_32,f_auto"]) {
      const response = await api(transformUrl(caller, transform, fileId), { headers: { Accept: CHROME_ACCEPT } });
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([response.status, response.headers.get("X-Transform-Engine"), response.headers.get("Content-Type")]).toEqual([200, "origin", "image/webp"]);
      const frames = webpFrames(bytes);
      expect(frames.map((f) => f.duration)).toEqual(ANIMATED_FIXTURE.delay);
      expect(frames.every((f) => f.width === 32 && f.height === 24)).toBe(true);
    }
  });

  it("anim_false takes the first frame", async () => {
    const caller = await seedCaller();
    const fileId = await seed(caller, "animated.webp");
    const response = await api(`/v1/image/t/${caller.keyId}/w_32,anim_false/${fileId}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([response.status, response.headers.get("Content-Type")]).toEqual([200, "image/webp"]);
    expect(webpFrames(bytes)).toEqual([]);
    const pixels = await decodePixels("webp", bytes);
    expect([pixels.width, pixels.height]).toEqual([32, 24]);
    expect(Array.from(pixels.data.subarray(0, 3)).map((v) => Math.round(v / 16))).toEqual([16, 0, 0]);
  });
});
