// f_mp4 and f_webm through the transform path: made at the origin (ffmpeg), then stored, cached and
// billed like any derivative. The frames and timing are checked at the origin
// (origin/image/video/animation-to-video.test.ts); here, where the edge routes them and what it serves.
import { describe, expect, it } from "vitest";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

describe("GET /v1/image/t/{key_id}/f_mp4|f_webm/{file_id}", () => {
  it("makes an animated GIF an MP4 and an animated WebP a WebM at the origin, cached and billed once each", async () => {
    const caller = await seedCaller();
    const gif = await seedSource(caller, await generatedBytes("animated.gif"), "image/gif");
    const webp = await seedSource(caller, await generatedBytes("animated.webp"), "image/webp");
    for (const [fileId, transform, contentType] of [[gif, "w_32,f_mp4", "video/mp4"], [webp, "f_webm", "video/webm"]] as const) {
      const first = await api(transformUrl(caller, transform, fileId));
      const bytes = new Uint8Array(await first.arrayBuffer());
      expect([first.status, first.headers.get("Content-Type"), first.headers.get("X-Transform-Engine"), first.headers.get("X-Cache-Tier")]).toEqual([200, contentType, "origin", "compute"]);
      // An MP4 opens with its ftyp box, a WebM with the EBML magic.
      if (contentType === "video/mp4") expect(ascii(bytes, 4, 8)).toBe("ftyp");
      else expect(Array.from(bytes.subarray(0, 4))).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
      const again = await api(transformUrl(caller, transform, fileId));
      expect([again.headers.get("X-Cache-Tier"), new Uint8Array(await again.arrayBuffer())]).toEqual(["edge", bytes]);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("refuses a still image with 422 unprocessable, charged nothing", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("photo.png"), "image/png");
    const problem = await problemOf(await api(transformUrl(caller, "f_mp4", fileId)));
    expect([problem.status, problem.type]).toEqual([422, "https://pixelpress.dev/problems/unprocessable"]);
    expect(problem.detail).toContain("f_mp4");
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });
});
