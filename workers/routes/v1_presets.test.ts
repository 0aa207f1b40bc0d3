// Named presets: the resource routes (POST/GET/DELETE /v1/presets) and `t_<name>` on the transform
// path, through the real edge, D1, R2, the Cache API and the ledger.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { transformPath } from "../../contracts/transform/path.ts";
import { transformSignature } from "../../contracts/transform/signature.ts";
import { decodePixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { shardRows } from "../test-support/shard-rows.ts";

async function generated(name: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(`${env.TEST_GENERATED_FILES_URL}/${name}`)).arrayBuffer());
}

const putPreset = (caller: TestCaller, name: string, transform: string) => api("/v1/presets", { key: caller, json: { name, transform } });

async function derivativeRows(accountId: string): Promise<{ canonical: string }[]> {
  return shardRows<{ canonical: string }>(accountId, "SELECT canonical FROM derivatives ORDER BY canonical");
}

async function fetched(path: string, headers: Record<string, string> = {}) {
  const res = await api(path, { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("POST/GET/DELETE /v1/presets", () => {
  it("creates a preset as its canonical transform, lists it, points it elsewhere and deletes it", async () => {
    const caller = await seedCaller();
    const created = await putPreset(caller, "thumb", "f_webp,fit_cover,h_48,w_64,q_76");
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ preset: { name: "thumb", transform: "w_64,h_48,fit_cover,f_webp" }, purged: null });
    const same = await putPreset(caller, "thumb", "w_64,h_48,fit_cover,f_webp");
    expect([same.status, (await same.json<{ purged: unknown }>()).purged]).toEqual([200, null]);
    expect((await putPreset(caller, "avatar", "w_32")).status).toBe(201);

    const listed = await (await api("/v1/presets", { key: caller })).json<{ data: { name: string; transform: string }[] }>();
    expect(listed.data.map((preset) => [preset.name, preset.transform])).toEqual([
      ["avatar", "w_32"],
      ["thumb", "w_64,h_48,fit_cover,f_webp"],
    ]);

    const other = await seedCaller();
    expect((await (await api("/v1/presets", { key: other })).json<{ data: unknown[] }>()).data).toEqual([]);
    expect((await problemOf(await api("/v1/presets/thumb", { key: other, method: "DELETE" }))).status).toBe(404);

    const deleted = await api("/v1/presets/avatar", { key: caller, method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ preset: { name: "avatar" }, purged: { derivatives: 0, edge_entries: 0, cdn: { status: "not_configured" } } });
    expect((await problemOf(await api("/v1/presets/avatar", { key: caller, method: "DELETE" }))).status).toBe(404);
  });

  it("refuses what a preset may not hold with the transform parser's own problem, and a bad name", async () => {
    const caller = await seedCaller();
    const nested = await problemOf(await putPreset(caller, "a", "t_b,w_10"));
    expect([nested.status, nested.type, nested.errors]).toEqual([400, "https://pixelpress.dev/problems/transform_invalid", [{ pointer: "/transform/t_b", detail: "a preset cannot name another preset" }]]);
    expect((await problemOf(await putPreset(caller, "a", `w_10,s_${"A".repeat(22)}`))).errors?.[0]?.pointer).toBe(`/transform/s_${"A".repeat(22)}`);
    expect((await problemOf(await putPreset(caller, "a", "w_0"))).errors?.[0]?.pointer).toBe("/transform/w_0");
    expect((await problemOf(await putPreset(caller, "a", "r_auto"))).detail).toMatch(/changes nothing/);
    expect((await problemOf(await putPreset(caller, "Thumb", "w_10"))).type).toMatch(/validation_failed/);
    expect((await problemOf(await putPreset(caller, "a,b", "w_10"))).type).toMatch(/validation_failed/);
    expect((await (await api("/v1/presets", { key: caller })).json<{ data: unknown[] }>()).data).toEqual([]);
  });

  it("needs the images scope", async () => {
    const caller = await seedCaller({ scopes: ["pdf"] });
    expect((await problemOf(await putPreset(caller, "thumb", "w_10"))).status).toBe(403);
    expect((await problemOf(await api("/v1/presets", { key: caller }))).status).toBe(403);
    expect((await problemOf(await api("/v1/presets/thumb", { key: caller, method: "DELETE" }))).status).toBe(403);
  });
});

describe("t_<name> on the transform path", () => {
  it("makes the expansion's derivative: the same bytes, one cache entry, one charge", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    await putPreset(caller, "thumb", "w_64,h_48,fit_cover,f_png");

    const viaPreset = await fetched(transformUrl(caller, "t_thumb", fileId));
    expect([viaPreset.res.status, viaPreset.res.headers.get("X-Cache-Tier")]).toEqual([200, "compute"]);
    expect(viaPreset.res.headers.get("Cache-Control")).toBe("public, max-age=30");
    const pixels = await decodePixels("png", viaPreset.bytes);
    expect([pixels.width, pixels.height]).toEqual([64, 48]);

    const spelledOut = await fetched(transformUrl(caller, "f_png,fit_cover,w_64,h_48", fileId));
    expect(spelledOut.res.headers.get("X-Cache-Tier")).toBe("edge");
    expect(spelledOut.res.headers.get("Cache-Control")).toMatch(/immutable/);
    expect(spelledOut.bytes).toEqual(viaPreset.bytes);
    expect(await derivativeRows(caller.accountId)).toEqual([{ canonical: "w_64,h_48,fit_cover,f_png" }]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("lets the URL's own tokens replace the preset's of the same prefix, and dpr_ scale the result", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    await putPreset(caller, "thumb", "w_64,h_48,fit_cover,f_webp");

    const overridden = await fetched(transformUrl(caller, "f_png,t_thumb,w_40", fileId));
    expect([overridden.res.status, overridden.res.headers.get("Content-Type")]).toEqual([200, "image/png"]);
    const pixels = await decodePixels("png", overridden.bytes);
    expect([pixels.width, pixels.height]).toEqual([40, 48]);
    const spelledOut = await fetched(transformUrl(caller, "w_40,h_48,fit_cover,f_png", fileId));
    expect([spelledOut.res.headers.get("X-Cache-Tier"), spelledOut.bytes]).toEqual(["edge", overridden.bytes]);

    const doubled = await fetched(transformUrl(caller, "t_thumb,dpr_2,f_png", fileId));
    const large = await decodePixels("png", doubled.bytes);
    expect([large.width, large.height]).toEqual([128, 96]);
    expect((await derivativeRows(caller.accountId)).map((row) => row.canonical)).toEqual(["w_128,h_96,fit_cover,f_png", "w_40,h_48,fit_cover,f_png"]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("refuses an unknown preset with a problem naming the token, charging nothing", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    const unknown = await problemOf(await api(transformUrl(caller, "t_nope,w_40", fileId)));
    expect([unknown.status, unknown.type]).toEqual([400, "https://pixelpress.dev/problems/transform_invalid"]);
    expect(unknown.errors?.map(({ pointer }) => pointer)).toEqual(["/transform/t_nope"]);
    expect(unknown.errors?.[0]?.detail).toContain("t_nope");
    // Another account's preset of that name is as unknown.
    const other = await seedCaller();
    await putPreset(other, "nope", "w_10");
    expect((await problemOf(await api(transformUrl(caller, "t_nope", fileId)))).status).toBe(400);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
    expect(await derivativeRows(caller.accountId)).toEqual([]);
  });

  it("purges what a preset made when it is pointed elsewhere or deleted; the expansion is computed again and not charged again", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    await putPreset(caller, "thumb", "w_64,h_48,fit_cover,f_png");
    expect((await fetched(transformUrl(caller, "t_thumb", fileId))).res.headers.get("X-Cache-Tier")).toBe("compute");

    const changed = await putPreset(caller, "thumb", "w_32,f_png");
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ preset: { transform: "w_32,f_png" }, purged: { originals: 0, derivatives: 1, edge_entries: 1 } });
    expect(await derivativeRows(caller.accountId)).toEqual([]);
    const after = await fetched(transformUrl(caller, "t_thumb", fileId));
    expect(after.res.headers.get("X-Cache-Tier")).toBe("compute");
    expect((await decodePixels("png", after.bytes)).width).toBe(32);
    const before = await fetched(transformUrl(caller, "w_64,h_48,fit_cover,f_png", fileId));
    expect(before.res.headers.get("X-Cache-Tier")).toBe("compute");

    const deleted = await api("/v1/presets/thumb", { key: caller, method: "DELETE" });
    expect(await deleted.json()).toMatchObject({ purged: { derivatives: 1, edge_entries: 1 } });
    expect(await derivativeRows(caller.accountId)).toEqual([{ canonical: "w_64,h_48,fit_cover,f_png" }]);
    expect((await problemOf(await api(transformUrl(caller, "t_thumb", fileId)))).status).toBe(400);
    expect((await fetched(transformUrl(caller, "w_32,f_png", fileId))).res.headers.get("X-Cache-Tier")).toBe("compute");
    // Three derivatives were paid for once each; the recomputed ones were not charged again.
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("verifies a signature over the URL as written, with the preset's name", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generated("photo.png"), "image/png");
    await putPreset(caller, "thumb", "w_64,h_48,fit_cover,f_png");
    const secret = (await (await api(`/v1/keys/${caller.keyId}/signing-secret`, { key: caller, method: "POST" })).json<{ signing_secret: string }>()).signing_secret;
    expect((await api("/v1/account", { key: caller, method: "PATCH", json: { require_signed_transforms: true } })).status).toBe(200);
    const sign = (transform: string) => transformSignature(secret, transformPath(caller.keyId, transform, fileId));

    const signed = await fetched(transformUrl(caller, `t_thumb,s_${await sign("t_thumb")}`, fileId));
    expect(signed.res.status).toBe(200);
    const withOverride = await fetched(transformUrl(caller, `q_76,t_thumb,s_${await sign("t_thumb,q_76")}`, fileId));
    expect(withOverride.res.status).toBe(200);
    // The expansion's signature does not stand for the name, and a token added to a signed URL,
    // even one that looks like a default, is not covered.
    expect((await problemOf(await api(transformUrl(caller, `t_thumb,s_${await sign("w_64,h_48,fit_cover,f_png")}`, fileId)))).status).toBe(403);
    expect((await problemOf(await api(transformUrl(caller, `t_thumb,q_76,s_${await sign("t_thumb")}`, fileId)))).status).toBe(403);

    // The signing endpoint signs the same form.
    const viaApi = await api("/v1/image/sign", { key: caller, json: { key_id: caller.keyId, source: fileId, transforms: ["f_webp,t_thumb"] } });
    const [entry] = (await viaApi.json<{ urls: { canonical: string; url: string }[] }>()).urls;
    expect(entry!.canonical).toBe("t_thumb,f_webp");
    const served = await api(new URL(entry!.url).pathname);
    expect([served.status, served.headers.get("Content-Type")]).toEqual([200, "image/webp"]);
    await served.arrayBuffer();
  });
});
