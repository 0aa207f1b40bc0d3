// fl_ through the transform path: the edge sends it to the origin (it is off the edge's allow-list),
// and each mirror is a derivative of its own.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { api, seedCaller } from "../test-support/api.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";

async function generated(name: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(`${env.TEST_GENERATED_FILES_URL}/${name}`)).arrayBuffer());
}

describe("GET /v1/image/t/{key_id}/fl_<h|v|hv>/{file_id}", () => {
  // Both at the origin: the edge resizes with another filter, so its pixels are not the origin's.
  it("serves the left-right mirror of the same derivative, billed as its own", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    const plainRes = await api(transformUrl(caller, "w_64,f_png,fl_v", fileId));
    const mirroredRes = await api(transformUrl(caller, "f_png,fl_hv,w_64", fileId));
    expect([plainRes.status, mirroredRes.status]).toEqual([200, 200]);
    const plain = await decodePixels("png", new Uint8Array(await plainRes.arrayBuffer()));
    const mirrored = await decodePixels("png", new Uint8Array(await mirroredRes.arrayBuffer()));
    expect([mirrored.width, mirrored.height]).toEqual([plain.width, plain.height]);
    const rgb = (image: typeof plain, x: number, y: number) => [...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3)];
    for (const [x, y] of [[0, 0], [5, 10], [plain.width - 1, plain.height - 1], [30, 20]] as const) {
      expect(rgb(mirrored, x, y)).toEqual(rgb(plain, plain.width - 1 - x, y));
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });
});
