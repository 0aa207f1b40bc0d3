import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { canonicalPath } from "../transform/check-signature.ts";
import { urlTransform } from "../../contracts/transform/canonical.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";

const WIDTH_HINTS = "Sec-CH-Width, Sec-CH-Viewport-Width, Sec-CH-DPR";

// 1204 x 800: wider than the rungs the tests ask for, up to 1024.
async function seedPhoto(caller: TestCaller): Promise<string> {
  return seedSource(caller, await generatedBytes("photo.png"), "image/png");
}

async function fetched(path: string, headers: Record<string, string> = {}) {
  const res = await api(path, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const header = (name: string) => res.headers.get(name);
  return { res, bytes, etag: header("ETag"), cache: header("X-Cache"), hints: [header("Vary"), header("Accept-CH"), header("Critical-CH")] };
}

async function widthOf(bytes: Uint8Array): Promise<number> {
  return (await decodePixels("webp", bytes)).width;
}

async function signingSecret(caller: TestCaller): Promise<string> {
  const issued = await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" });
  return (await issued.json<{ signing_secret: string }>()).signing_secret;
}

describe("w_auto and dpr_auto", () => {
  it("serve a hinted width at its rung: two widths in one rung are one derivative and one charge, another rung a second", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const path = transformUrl(caller, "w_auto:400,f_webp", fileId);
    const first = await fetched(path, { "Sec-CH-Width": "500" });
    expect([first.res.status, first.cache, await widthOf(first.bytes)]).toEqual([200, "MISS", 640]);
    expect(first.hints).toEqual([WIDTH_HINTS, WIDTH_HINTS, WIDTH_HINTS]);

    const sameRung = await fetched(path, { "Sec-CH-Width": "600" });
    expect([sameRung.cache, sameRung.etag, sameRung.hints]).toEqual(["HIT", first.etag, first.hints]);
    // The rung's own URL is the same derivative.
    const plain = await fetched(transformUrl(caller, "w_640,f_webp", fileId));
    expect([plain.cache, plain.etag, plain.hints]).toEqual(["HIT", first.etag, [null, null, null]]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });

    const nextRung = await fetched(path, { "Sec-CH-Viewport-Width": "350", "Sec-CH-DPR": "2" });
    expect([nextRung.cache, await widthOf(nextRung.bytes)]).toEqual(["MISS", 768]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("serve the fallback without hints, and for hint values that are no width, never an error", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const path = transformUrl(caller, "w_auto:300,f_webp", fileId);
    const plain = await fetched(path);
    expect([plain.res.status, await widthOf(plain.bytes), plain.hints]).toEqual([200, 300, [WIDTH_HINTS, WIDTH_HINTS, WIDTH_HINTS]]);
    for (const bad of ["abc", "-640", "0", "640.5", "1e3", "9999999", ""]) {
      const served = await fetched(path, { "Sec-CH-Width": bad, "Sec-CH-Viewport-Width": bad, "Sec-CH-DPR": bad });
      expect([served.res.status, served.etag], bad).toEqual([200, plain.etag]);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("never serve wider than the picture: rungs past its width make its own width, billed once", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const path = transformUrl(caller, "w_auto:400,f_webp", fileId);
    const past = await fetched(path, { "Sec-CH-Width": "1500" });
    const further = await fetched(path, { "Sec-CH-Width": "3000" });
    expect([past.res.status, await widthOf(past.bytes), await widthOf(further.bytes)]).toEqual([200, 1204, 1204]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("scale w and h by dpr_auto's hinted ratio at its rung, varying on Sec-CH-DPR alone", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const path = transformUrl(caller, "w_200,dpr_auto,f_webp", fileId);
    const dense = await fetched(path, { "Sec-CH-DPR": "2.625", "Sec-CH-Width": "100" });
    expect([dense.res.status, await widthOf(dense.bytes), dense.hints]).toEqual([200, 600, ["Sec-CH-DPR", "Sec-CH-DPR", "Sec-CH-DPR"]]);
    const plain = await fetched(path);
    expect(await widthOf(plain.bytes)).toBe(200);
  });

  it("keep a signed URL's width within its bound, and the bound is signed", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const secret = await signingSecret(caller);
    const transform = "w_auto:300:200-480,f_webp";
    const signature = await transformSignature(secret, canonicalPath(caller.keyId, urlTransform(parseTransform(transform)), fileId));
    const path = transformUrl(caller, `${transform},s_${signature}`, fileId);
    const wide = await fetched(path, { "Sec-CH-Width": "1000" });
    const narrow = await fetched(path, { "Sec-CH-Width": "50" });
    expect([wide.res.status, await widthOf(wide.bytes), await widthOf(narrow.bytes)]).toEqual([200, 480, 200]);

    for (const other of ["w_auto:300:200-1024", "w_auto:300", "w_auto:480:200-480", "w_300"]) {
      const forged = await api(transformUrl(caller, `${other},f_webp,s_${signature}`, fileId), { headers: { "Sec-CH-Width": "1000" } });
      expect(forged.status, other).toBe(403);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("refuse a bound out of range or upside down as the token's problem, not charged", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    for (const token of ["w_auto:300:200-9000", "w_auto:300:480-200", "w_auto:0"]) {
      const problem = await problemOf(await api(transformUrl(caller, `${token},f_webp`, fileId), { headers: { "Sec-CH-Width": "400" } }));
      expect([problem.status, problem.errors?.map(({ pointer }) => pointer)]).toEqual([400, [`/transform/${token}`]]);
    }
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });
});

describe("q_auto on a slow ECT", () => {
  it("serves the next lower level's derivative, and asks for ECT", async () => {
    const caller = await seedCaller();
    const fileId = await seedPhoto(caller);
    const path = transformUrl(caller, "w_320,q_auto,f_webp", fileId);
    const slow = await fetched(path, { ECT: "2g" });
    expect([slow.res.status, slow.hints]).toEqual([200, ["Save-Data, ECT", "ECT", null]]);
    const eco = await fetched(transformUrl(caller, "w_320,q_auto:eco,f_webp", fileId));
    expect([eco.cache, eco.etag]).toEqual(["HIT", slow.etag]);
    const fast = await fetched(path, { ECT: "4g" });
    expect([fast.cache, fast.etag === slow.etag]).toEqual(["MISS", false]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });
});
