import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { CHROME_ACCEPT, seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { LQIP_MAX_SIDE } from "../../contracts/origin/image-placeholder.ts";

async function seedPhoto(caller: TestCaller): Promise<string> {
  return seedSource(caller, await generatedBytes("landscape-6.jpg"), "image/jpeg");
}

describe("the ph_lqip transform token", () => {
  it("serves the shaped image's LQIP as a WebP made at the origin, cached and billed like any derivative", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const miss = await api(transformUrl(caller, "w_400,h_200,fit_cover,ph_lqip", fileId), { headers: { Accept: CHROME_ACCEPT } });
    expect(miss.status).toBe(200);
    expect(miss.headers.get("Content-Type")).toBe("image/webp");
    expect(miss.headers.get("X-Transform-Engine")).toBe("origin");
    expect(miss.headers.get("Vary")).toBeNull();
    const bytes = new Uint8Array(await miss.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(300);
    const pixels = await decodePixels("webp", bytes);
    expect([pixels.width, pixels.height]).toEqual([LQIP_MAX_SIDE, LQIP_MAX_SIDE / 2]);

    // q_ and f_ cannot change a placeholder: the same derivative, from the cache, charged once.
    const hit = await api(transformUrl(caller, "ph_lqip,f_avif,q_20,fit_cover,h_200,w_400", fileId));
    expect(hit.headers.get("X-Cache")).toBe("HIT");
    expect(hit.headers.get("ETag")).toBe(miss.headers.get("ETag"));
    expect(new Uint8Array(await hit.arrayBuffer())).toEqual(bytes);
    expect((await transformCharges(caller.accountId)).micros).toBe(800);
  });

  it("refuses a placeholder kind it does not make", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const problem = await problemOf(await api(transformUrl(caller, "ph_blurhash", fileId)));
    expect(problem.status).toBe(400);
    expect(problem.errors?.[0]?.pointer).toBe("/transform/ph_blurhash");
  });
});
