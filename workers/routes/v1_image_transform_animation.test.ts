// Animated originals through URL transforms: always made at the origin (the edge runs no frame
// loop), kept animated as WebP, first frame with anim_false. Frames and timing are read back from
// the WebP's own chunks (no decoder for animated WebP runs in workerd).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { storeFile } from "../files/file-store.ts";
import { api, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { webpFrames } from "../test-support/webp-frames.ts";
import { ANIMATED_FIXTURE } from "../../test/fixtures/animated-fixture.ts";

const CHROME_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

async function seed(caller: TestCaller, name: "animated.gif" | "animated.webp"): Promise<string> {
  const body = await generatedBytes(name);
  const contentType = name.endsWith(".gif") ? "image/gif" : "image/webp";
  const record = await storeFile(env, { accountId: caller.accountId, kind: "source", body, size: body.byteLength, contentType, expiresAt: Date.now() + 3_600_000 });
  return record.id;
}

describe("GET /v1/image/t/... of an animated original", () => {
  it.each(["animated.gif", "animated.webp"] as const)("%s: made at the origin as animated WebP with the same frames and timing, f_auto included", async (name) => {
    const caller = await seedCaller();
    const fileId = await seed(caller, name);
    for (const transform of ["w_32", "w_32,f_auto"]) {
      const response = await api(`/v1/image/t/${caller.keyId}/${transform}/${fileId}`, { headers: { Accept: CHROME_ACCEPT } });
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
