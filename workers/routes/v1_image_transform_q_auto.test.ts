import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { CHROME_ACCEPT, seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { canonicalPath } from "../transform/check-signature.ts";
import { canonicalTransform } from "../../contracts/transform/canonical.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";

async function seedPhoto(caller: TestCaller): Promise<string> {
  return seedSource(caller, await generatedBytes("photo.png"), "image/png");
}

async function fetched(path: string, headers: Record<string, string> = {}) {
  const res = await api(path, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes, etag: res.headers.get("ETag"), cache: res.headers.get("X-Cache"), vary: res.headers.get("Vary") };
}

describe("the q_auto transform token", () => {
  it("is made at the origin, served, then cached and charged once like any derivative", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const miss = await fetched(transformUrl(caller, "w_320,q_auto,f_jpeg", fileId));
    expect(miss.res.status).toBe(200);
    expect([miss.cache, miss.res.headers.get("X-Transform-Engine"), miss.res.headers.get("Content-Type")]).toEqual(["MISS", "origin", "image/jpeg"]);
    expect(miss.vary).toBe("Save-Data, ECT");
    const pixels = await decodePixels("jpeg", miss.bytes);
    expect([pixels.width, pixels.height]).toEqual([320, 213]);

    // q_auto:good is q_auto's other spelling: the same derivative, from the edge cache.
    const hit = await fetched(transformUrl(caller, "f_jpeg,q_auto:good,w_320", fileId));
    expect([hit.cache, hit.etag, hit.vary]).toEqual(["HIT", miss.etag, "Save-Data, ECT"]);
    expect(hit.bytes).toEqual(miss.bytes);
    // Not the fixed default's derivative.
    const fixed = await fetched(transformUrl(caller, "w_320,f_jpeg", fileId));
    expect(fixed.etag).not.toBe(miss.etag);
    expect(fixed.vary).toBeNull();
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("varies on Accept and Save-Data together with f_auto", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const res = await fetched(transformUrl(caller, "w_200,q_auto:best,f_auto", fileId), { Accept: CHROME_ACCEPT });
    expect([res.res.status, res.res.headers.get("Content-Type"), res.vary]).toEqual([200, "image/avif", "Accept, Save-Data, ECT"]);
  });

  it("under Save-Data: on serves the next lower level's derivative, a different cache entry from the same URL without it", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const path = transformUrl(caller, "w_320,q_auto,f_jpeg", fileId);
    const full = await fetched(path);
    const saving = await fetched(path, { "Save-Data": "on" });
    expect([full.cache, saving.cache]).toEqual(["MISS", "MISS"]);
    expect(saving.vary).toBe("Save-Data, ECT");
    expect(saving.etag).not.toBe(full.etag);
    expect(saving.bytes.byteLength).toBeLessThan(full.bytes.byteLength);
    expect((await decodePixels("jpeg", saving.bytes)).width).toBe(320);

    // q_auto:eco's own URL is the same derivative: the cache entry Save-Data made, charged once.
    const eco = await fetched(transformUrl(caller, "w_320,q_auto:eco,f_jpeg", fileId));
    expect([eco.cache, eco.etag]).toEqual(["HIT", saving.etag]);
    expect(eco.bytes).toEqual(saving.bytes);
    // Each request reads its own entry again.
    expect((await fetched(path)).etag).toBe(full.etag);
    expect((await fetched(path, { "Save-Data": "on" })).etag).toBe(saving.etag);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("leaves Save-Data out of the derivative and of Vary where it cannot change the bytes", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    for (const transform of ["w_320,q_60,f_webp", "w_320,f_webp", "w_320,q_auto:low,f_webp"]) {
      const plain = await fetched(transformUrl(caller, transform, fileId));
      const saving = await fetched(transformUrl(caller, transform, fileId), { "Save-Data": "on" });
      expect([plain.res.status, plain.cache, plain.vary]).toEqual([200, "MISS", null]);
      expect([saving.cache, saving.etag, saving.vary]).toEqual(["HIT", plain.etag, null]);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 3, micros: 2400 });
  });

  it("refuses a level it does not have, pointing at the token, without charging", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const res = await api(transformUrl(caller, "w_320,q_auto:bogus", fileId));
    const problem = await problemOf(res);
    expect([problem.status, problem.type]).toEqual([400, "https://pixelpress.dev/problems/transform_invalid"]);
    expect(problem.errors?.map(({ pointer }) => pointer)).toEqual(["/transform/q_auto:bogus"]);
    expect(problem.errors?.[0]?.detail).toContain("auto:eco");
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("is covered by the signature: q_auto's signature verifies under Save-Data, and not for another level", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const issued = await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" });
    const secret = (await issued.json<{ signing_secret: string }>()).signing_secret;
    const signature = await transformSignature(secret, canonicalPath(caller.keyId, canonicalTransform(parseTransform("w_320,q_auto,f_webp")), fileId));

    const signed = await fetched(transformUrl(caller, `q_auto:good,f_webp,w_320,s_${signature}`, fileId));
    expect(signed.res.status).toBe(200);
    const saving = await fetched(transformUrl(caller, `w_320,q_auto,f_webp,s_${signature}`, fileId), { "Save-Data": "on" });
    expect(saving.res.status).toBe(200);
    expect(saving.etag).not.toBe(signed.etag);
    for (const other of ["q_auto:eco", "q_auto:low", "q_auto:best", "q_76"]) {
      const forged = await api(transformUrl(caller, `w_320,${other},f_webp,s_${signature}`, fileId));
      expect(forged.status).toBe(403);
      expect((await problemOf(forged)).type).toBe("https://pixelpress.dev/problems/transform_signature_invalid");
    }
  });
});
