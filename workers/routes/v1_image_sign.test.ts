import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalTransform } from "../../contracts/transform/canonical.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import { decodePixels } from "../edge-image/codecs.ts";
import { createKey, revokeKey } from "../keys/key-store.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { seedSource, transformCharges } from "../test-support/transform-requests.ts";
import { canonicalPath } from "../transform/check-signature.ts";

interface Signed {
  key_id: string;
  urls: { transform: string; canonical: string; signature: string; url: string }[];
}

const sign = (caller: TestCaller, json: unknown) => api("/v1/image/sign", { key: caller, json });

async function issueSecret(caller: TestCaller, keyId = caller.keyId): Promise<string> {
  const issued = await api(`/v1/keys/${keyId}/signing-secret`, { key: caller, method: "POST" });
  expect(issued.status).toBe(200);
  return (await issued.json<{ signing_secret: string }>()).signing_secret;
}

/** The path and query of an absolute URL the edge handed out, to send to the test worker. */
const pathOf = (url: string) => url.slice(new URL(url).origin.length);

describe("POST /v1/image/sign", () => {
  it("signs each transform with the key's secret, so an account that requires signatures serves the URLs", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");
    const secret = await issueSecret(caller);
    expect((await api("/v1/account", { key: caller, method: "PATCH", json: { require_signed_transforms: true } })).status).toBe(200);

    const res = await sign(caller, { key_id: caller.keyId, source: fileId, transforms: ["w_12,f_png", "f_png,w_24"] });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(secret);
    const signed = JSON.parse(text) as Signed;
    expect(signed.key_id).toBe(caller.keyId);
    expect(signed.urls.map((url) => [url.transform, url.canonical])).toEqual([
      ["w_12,f_png", canonicalTransform(parseTransform("w_12,f_png"))],
      ["f_png,w_24", canonicalTransform(parseTransform("w_24,f_png"))],
    ]);
    for (const url of signed.urls) {
      // The signature is the one a holder of the secret computes with the client's signing code.
      expect(url.signature).toBe(await transformSignature(secret, canonicalPath(caller.keyId, url.canonical, fileId)));
      expect(new URL(url.url).pathname).toBe(`/v1/image/t/${caller.keyId}/${url.canonical},s_${url.signature}/${fileId}`);
    }

    for (const [index, width] of [12, 24].entries()) {
      const image = await api(pathOf(signed.urls[index]!.url));
      expect(image.status).toBe(200);
      expect((await decodePixels("png", new Uint8Array(await image.arrayBuffer()))).width).toBe(width);
    }
    const unsigned = await api(`/v1/image/t/${caller.keyId}/w_12,f_png/${fileId}`);
    expect(unsigned.status).toBe(403);
    await unsigned.arrayBuffer();
  });

  it("signs a path under an origin as the transform path reads it, origin name and path together", async () => {
    const caller = await seedCaller();
    const secret = await issueSecret(caller);
    const res = await sign(caller, { key_id: caller.keyId, source: "shop/products/red%20shoe.jpg", transforms: ["w_400,f_auto"] });
    expect(res.status).toBe(200);
    const [url] = (await res.json<Signed>()).urls;
    expect(url!.signature).toBe(await transformSignature(secret, canonicalPath(caller.keyId, url!.canonical, "shop/products/red%20shoe.jpg")));
    expect(url!.url.endsWith(`/${url!.canonical},s_${url!.signature}/shop/products/red%20shoe.jpg`)).toBe(true);
  });

  it("refuses bad transforms by their place in the list, an s_ already given, bad sources and a key without a secret, charging nothing", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");

    const noSecret = await problemOf(await sign(caller, { key_id: caller.keyId, source: fileId, transforms: ["w_12"] }));
    expect(noSecret).toMatchObject({ status: 409, type: "https://pixelpress.dev/problems/conflict" });
    expect(noSecret.detail).toContain(`/v1/keys/${caller.keyId}/signing-secret`);

    await issueSecret(caller);
    const badToken = await problemOf(await sign(caller, { key_id: caller.keyId, source: fileId, transforms: ["w_12", "w_12,zz_3"] }));
    expect(badToken).toMatchObject({ status: 400, type: "https://pixelpress.dev/problems/transform_invalid" });
    expect(badToken.errors).toEqual([expect.objectContaining({ pointer: "/transforms/1/zz_3" })]);

    const alreadySigned = await problemOf(await sign(caller, { key_id: caller.keyId, source: fileId, transforms: ["w_12,s_AAAAAAAAAAAAAAAAAAAAAA"] }));
    expect(alreadySigned).toMatchObject({ status: 400, type: "https://pixelpress.dev/problems/transform_invalid" });
    expect(alreadySigned.errors?.[0]?.pointer).toBe("/transforms/0");

    const escaping = await problemOf(await sign(caller, { key_id: caller.keyId, source: "shop/a/../../admin.jpg", transforms: ["w_12"] }));
    expect(escaping).toMatchObject({ status: 400, type: "https://pixelpress.dev/problems/origin_path_invalid" });
    expect((await problemOf(await sign(caller, { key_id: caller.keyId, source: `${fileId}/more`, transforms: ["w_12"] }))).status).toBe(404);
    expect((await problemOf(await sign(caller, { key_id: caller.keyId, source: `${fileId}?x=1`, transforms: ["w_12"] }))).status).toBe(400);
    expect((await problemOf(await sign(caller, { key_id: caller.keyId, source: fileId, transforms: [] }))).status).toBe(400);
    expect((await problemOf(await sign(caller, { key_id: "key_a/b", source: fileId, transforms: ["w_12"] }))).status).toBe(400);
    expect((await problemOf(await sign(caller, { key_id: caller.keyId, source: fileId, transforms: Array(33).fill("w_12") }))).status).toBe(400);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("signs only for the caller's account, with the images scope and a live key", async () => {
    const caller = await seedCaller();
    await issueSecret(caller);
    const body = { key_id: caller.keyId, source: "file_8kT2bQ7xLw3mZr9Xc1Vd", transforms: ["w_12"] };

    const stranger = await seedCaller();
    const foreign = await problemOf(await sign(stranger, body));
    expect(foreign).toMatchObject({ status: 404, type: "https://pixelpress.dev/problems/not_found" });
    expect(JSON.stringify(foreign)).not.toContain("s_");

    const pdfOnly = await createKey(env.DB, caller.accountId, { name: "pdf only", scopes: ["pdf"] });
    expect((await problemOf(await sign({ ...caller, keyId: pdfOnly.record.id, secret: pdfOnly.secret }, body))).status).toBe(403);
    const imagesOnly = await createKey(env.DB, caller.accountId, { name: "images only", scopes: ["images"] });
    expect((await sign({ ...caller, keyId: imagesOnly.record.id, secret: imagesOnly.secret }, body)).status).toBe(200);

    expect((await problemOf(await api("/v1/image/sign", { json: body }))).status).toBe(401);

    const spare = await createKey(env.DB, caller.accountId, { name: "spare", scopes: null });
    await issueSecret(caller, spare.record.id);
    expect(await revokeKey(env.DB, caller.accountId, spare.record.id)).toBe("revoked");
    expect((await problemOf(await sign(caller, { ...body, key_id: spare.record.id }))).status).toBe(404);
  });
});
