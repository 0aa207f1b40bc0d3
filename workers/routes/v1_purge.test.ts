import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { loopbackApi, originTransformUrl, registerGeneratedOrigin } from "../test-support/origin-requests.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { fileShardRows } from "../test-support/shard-rows.ts";
import type { RecordedPurge } from "../test-support/cloudflare-api-standin.ts";

// Without CF_ZONE_ID and CF_API_TOKEN a purge reaches only this data centre, and says so.
const localOnly = (urls: number) => ({ status: "not_configured", urls_purged: 0, urls_not_purged: urls, error: null });

async function served(path: string): Promise<string | null> {
  const res = await loopbackApi(path);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers.get("X-Cache-Tier");
}

async function keptOriginals(accountId: string): Promise<number> {
  const listed = await env.FILES.list({ prefix: `accounts/${accountId}/origins/` });
  return listed.objects.length;
}

describe("POST /v1/purge", () => {
  it("drops an origin path's original, derivatives and edge entries; the next request fetches again without a second charge", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const url = originTransformUrl(caller, "w_30", "shop", "/photo.png");
    expect(await served(url)).toBe("compute");
    expect(await served(url)).toBe("edge");
    expect(await served(originTransformUrl(caller, "w_30", "shop", "/rgb.png"))).toBe("compute");
    expect(await keptOriginals(caller.accountId)).toBe(2);

    const purged = await api("/v1/purge", { key: caller, json: { origin: "shop", paths: ["/photo.png"] } });
    expect(purged.status).toBe(200);
    expect(await purged.json()).toEqual({ originals: 1, derivatives: 1, edge_entries: 1, cdn: localOnly(1) });
    expect(await keptOriginals(caller.accountId)).toBe(1);
    // Fetched and computed again; the same bytes are the same version, so not charged again.
    expect(await served(url)).toBe("compute");
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("revalidates instead when asked: the original and derivatives stay, the edge entry goes, and the next request is served from R2 uncharged", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const url = originTransformUrl(caller, "w_30", "shop", "/photo.png");
    expect(await served(url)).toBe("compute");
    expect(await served(url)).toBe("edge");
    // A remembered 404 is made stale too, but keeps no original to count.
    expect((await loopbackApi(originTransformUrl(caller, "w_30", "shop", "/photo-missing.png"))).status).toBe(404);
    const purged = await api("/v1/purge", { key: caller, json: { origin: "shop", prefix: "/photo", revalidate: true } });
    expect(await purged.json()).toEqual({ originals: 1, derivatives: 0, edge_entries: 1, cdn: localOnly(1) });
    expect(await fileShardRows(caller.accountId, "SELECT path, status, fresh_until FROM origin_objects ORDER BY path")).toEqual([
      { path: "/photo-missing.png", status: "missing", fresh_until: 0 },
      { path: "/photo.png", status: "ready", fresh_until: 0 },
    ]);
    expect(await keptOriginals(caller.accountId)).toBe(1);
    // Asked again (the same bytes are the same version), so the kept derivative serves.
    expect(await served(url)).toBe("r2");
    expect(await served(url)).toBe("edge");
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("purges every path under a prefix and nothing else", async () => {
    const caller = await seedCaller();
    const registered = await loopbackApi("/v1/origins", { key: caller, json: { name: "shop", base_url: `${env.TEST_GENERATED_FILES_URL}/` } });
    expect(registered.status).toBe(201);
    expect(await served(originTransformUrl(caller, "w_30", "shop", "/photo.png"))).toBe("compute");
    expect(await served(originTransformUrl(caller, "w_30", "shop", "/rgb.png"))).toBe("compute");
    const purged = await api("/v1/purge", { key: caller, json: { origin: "shop", prefix: "/photo" } });
    expect(await purged.json()).toEqual({ originals: 1, derivatives: 1, edge_entries: 1, cdn: localOnly(1) });
    expect(await served(originTransformUrl(caller, "w_30", "shop", "/rgb.png"))).toBe("edge");
  });

  it("drops a file's derivatives and keeps the file; another account's files are untouched", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");
    expect(await served(transformUrl(caller, "w_10", fileId))).toBe("compute");
    const stranger = await seedCaller();
    const refused = await api("/v1/purge", { key: stranger, json: { files: [fileId] } });
    expect(await refused.json()).toEqual({ originals: 0, derivatives: 0, edge_entries: 0, cdn: localOnly(0) });
    expect(await served(transformUrl(caller, "w_10", fileId))).toBe("edge");

    const purged = await api("/v1/purge", { key: caller, json: { files: [fileId] } });
    expect(await purged.json()).toEqual({ originals: 0, derivatives: 1, edge_entries: 1, cdn: localOnly(1) });
    expect(await served(transformUrl(caller, "w_10", fileId))).toBe("compute");
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });

  it("deleting an origin drops what was cached from it", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    expect(await served(originTransformUrl(caller, "w_30", "shop", "/photo.png"))).toBe("compute");
    const deleted = await api("/v1/origins/shop", { key: caller, method: "DELETE" });
    expect((await deleted.json<{ purged: unknown }>()).purged).toEqual({ originals: 1, derivatives: 1, edge_entries: 1, cdn: localOnly(1) });
    expect(await keptOriginals(caller.accountId)).toBe(0);
    expect((await problemOf(await loopbackApi(originTransformUrl(caller, "w_30", "shop", "/photo.png")))).status).toBe(404);
  });

  it("with a zone token, purges the edge cache's own URLs (under PUBLIC_BASE_URL) in every data centre through Cloudflare's API", async () => {
    const caller = await seedCaller();
    await registerGeneratedOrigin(caller);
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");
    expect(await served(transformUrl(caller, "w_10", fileId))).toBe("compute");
    expect(await served(originTransformUrl(caller, "w_30", "shop", "/photo.png"))).toBe("compute");
    expect(await served(originTransformUrl(caller, "w_40", "shop", "/photo.png"))).toBe("compute");
    // The keys the hit path reads are these real URLs on the public host.
    const fileEntry = `http://api.test/v1/image/t/~cache/${caller.accountId}/${fileId}/w_10`;
    const originEntries = ["w_30", "w_40"].map((t) => `http://api.test/v1/image/t/~cache/${caller.accountId}/o/shop/%2Fphoto.png/${t}`);
    for (const url of [fileEntry, ...originEntries]) expect(await caches.default.match(url)).toBeDefined();

    const zoneId = `ok-purge-${caller.accountId}`;
    const zoneEnv = { CF_ZONE_ID: zoneId, CF_API_TOKEN: "zone-token" };
    const purge = (json: unknown) =>
      fetchWithEnv(zoneEnv, new Request("http://api.test/v1/purge", { method: "POST", headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" }, body: JSON.stringify(json) }));
    const files = await purge({ files: [fileId] });
    expect(files.status).toBe(200);
    expect(await files.json()).toEqual({ originals: 0, derivatives: 1, edge_entries: 1, cdn: { status: "purged", urls_purged: 1, urls_not_purged: 0, error: null } });
    const paths = await purge({ origin: "shop", paths: ["/photo.png"] });
    expect(await paths.json()).toEqual({ originals: 1, derivatives: 2, edge_entries: 2, cdn: { status: "purged", urls_purged: 2, urls_not_purged: 0, error: null } });

    const standIn = env.CF_API_BASE_URL.replace(/\/client\/v4$/, "");
    const calls = await (await fetch(`${standIn}/recorded/${zoneId}`)).json<RecordedPurge[]>();
    expect(calls.map((call) => ({ path: call.path, authorization: call.authorization }))).toEqual([
      { path: `/client/v4/zones/${zoneId}/purge_cache`, authorization: "Bearer zone-token" },
      { path: `/client/v4/zones/${zoneId}/purge_cache`, authorization: "Bearer zone-token" },
    ]);
    expect(calls[0]!.body).toEqual({ files: [fileEntry] });
    for (const entry of originEntries) expect((calls[1]!.body as { files: string[] }).files).toContain(entry);
    for (const url of [fileEntry, ...originEntries]) expect(await caches.default.match(url)).toBeUndefined();
  });

  it("says so in the reply when Cloudflare refuses the purge; what was dropped here stays dropped", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");
    expect(await served(transformUrl(caller, "w_12", fileId))).toBe("compute");
    const res = await fetchWithEnv(
      { CF_ZONE_ID: `denied-${caller.accountId}`, CF_API_TOKEN: "revoked" },
      new Request("http://api.test/v1/purge", { method: "POST", headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" }, body: JSON.stringify({ files: [fileId] }) }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      originals: 0,
      derivatives: 1,
      edge_entries: 1,
      cdn: { status: "failed", urls_purged: 0, urls_not_purged: 1, error: "Cloudflare's API answered 403: 10000 Authentication error." },
    });
    expect(await served(transformUrl(caller, "w_12", fileId))).toBe("compute");
  });

  it("refuses an unknown origin, a path that leaves the base, and a key without the images scope", async () => {
    const caller = await seedCaller();
    expect((await problemOf(await api("/v1/purge", { key: caller, json: { origin: "nope", paths: ["/a.jpg"] } }))).status).toBe(404);
    await registerGeneratedOrigin(caller);
    expect((await problemOf(await api("/v1/purge", { key: caller, json: { origin: "shop", paths: ["/../a.jpg"] } }))).status).toBe(400);
    const pdfOnly = await seedCaller({ scopes: ["pdf"] });
    expect((await problemOf(await api("/v1/purge", { key: pdfOnly, json: { files: ["file_x"] } }))).status).toBe(403);
  });
});
