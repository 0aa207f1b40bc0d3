import { fileShardRows } from "../test-support/shard-rows.ts";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { unseal } from "../crypto/seal.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { loopbackApi } from "../test-support/origin-requests.ts";

describe("POST/GET/DELETE /v1/origins", () => {
  it("registers, lists and deletes an origin by name", async () => {
    const caller = await seedCaller();
    const created = await api("/v1/origins", { key: caller, json: { name: "shop", base_url: "https://cdn.example.com/images" } });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: "shop", kind: "http", base_url: "https://cdn.example.com/images/", s3: null });
    const again = await problemOf(await api("/v1/origins", { key: caller, json: { name: "shop", base_url: "https://other.example.com/" } }));
    expect(again.status).toBe(409);

    const listed = await (await api("/v1/origins", { key: caller })).json<{ data: { name: string }[] }>();
    expect(listed.data.map((o) => o.name)).toEqual(["shop"]);
    // Another account sees none of it, and cannot delete it.
    const other = await seedCaller();
    expect((await (await api("/v1/origins", { key: other })).json<{ data: unknown[] }>()).data).toEqual([]);
    expect((await problemOf(await api("/v1/origins/shop", { key: other, method: "DELETE" }))).status).toBe(404);

    const deleted = await api("/v1/origins/shop", { key: caller, method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ origin: { name: "shop" }, purged: { originals: 0, derivatives: 0, edge_entries: 0 } });
    expect((await (await api("/v1/origins", { key: caller })).json<{ data: unknown[] }>()).data).toEqual([]);
  });

  it("checks the URL with the SSRF guard, and takes http only where loopback URLs are allowed", async () => {
    const caller = await seedCaller();
    const refused = async (body: unknown) => problemOf(await api("/v1/origins", { key: caller, json: body }));
    expect((await refused({ name: "lan", base_url: "https://10.0.0.7/" })).type).toMatch(/source_forbidden_address/);
    expect((await refused({ name: "meta", base_url: "http://169.254.169.254/latest/" })).type).toMatch(/source_forbidden_address/);
    expect((await refused({ name: "local", base_url: "http://127.0.0.1:9000/" })).type).toMatch(/source_forbidden_address/);
    expect((await refused({ name: "plain", base_url: "http://cdn.example.com/" })).type).toMatch(/source_invalid_url/);
    expect((await refused({ name: "query", base_url: "https://cdn.example.com/?sig=1" })).type).toMatch(/source_invalid_url/);
    expect((await refused({ name: "Bad_Name", base_url: "https://cdn.example.com/" })).type).toMatch(/validation_failed/);
    expect((await refused({ name: "s3", s3: { endpoint: "https://192.168.1.2", bucket: "photos", access_key_id: "a", secret_access_key: "b" } })).type).toMatch(
      /source_forbidden_address/,
    );
    const local = await loopbackApi("/v1/origins", { key: caller, json: { name: "local", base_url: "http://127.0.0.1:9000/" } });
    expect(local.status).toBe(201);
  });

  it("keeps an S3 origin's secret sealed and never shows it", async () => {
    const caller = await seedCaller();
    const body = { name: "bucket", s3: { endpoint: "https://acct.r2.cloudflarestorage.com", bucket: "photos", access_key_id: "AKID", secret_access_key: "very-secret" } };
    const created = await api("/v1/origins", { key: caller, json: body });
    expect(created.status).toBe(201);
    const text = await created.text();
    expect(text).not.toContain("very-secret");
    expect(JSON.parse(text)).toMatchObject({ kind: "s3", base_url: "https://acct.r2.cloudflarestorage.com/photos/", s3: { region: "auto", access_key_id: "AKID" } });
    const row = (await fileShardRows<{ s3_secret_sealed: string }>(caller.accountId, "SELECT s3_secret_sealed FROM origins"))[0]!;
    expect(row.s3_secret_sealed).not.toContain("very-secret");
    expect(await unseal(env.SIGNING_SECRET, row.s3_secret_sealed)).toBe("very-secret");
    expect(await (await api("/v1/origins", { key: caller })).text()).not.toContain("very-secret");
  });

  it("needs the images scope", async () => {
    const caller = await seedCaller({ scopes: ["pdf"] });
    const problem = await problemOf(await api("/v1/origins", { key: caller, json: { name: "shop", base_url: "https://cdn.example.com/" } }));
    expect([problem.status, problem.type]).toEqual([403, expect.stringMatching(/forbidden_scope/)]);
  });
});
