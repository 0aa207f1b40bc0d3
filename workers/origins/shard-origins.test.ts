import { createMessageBatch, env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { consumeLedgerFeed, LEDGER_FEED_QUEUE, originObjectFeedMessage } from "../billing/ledger-feed.ts";
import { fileShard } from "../shards/shard-stub.ts";
import { seedCaller } from "../test-support/api.ts";
import { fileShardRows } from "../test-support/shard-rows.ts";
import { currentVersion, dropOriginObjects, findOriginPath, markObjectsStale, saveReadyObject } from "./origin-object-store.ts";
import { createOrigin, findOrigin, listOrigins, type OriginRecord } from "./origin-store.ts";
import type { ShardOriginObjectRow } from "./shard-origins.ts";

const HOUR = 3_600_000;

type ReportedPath = { path: string; status: string; version: string | null; r2_key: string | null; fresh_until: number };

const ready = (version: string, now: number) => ({
  version,
  r2_key: `k/${version}`,
  size_bytes: 10,
  content_type: "image/png",
  upstream_etag: `"${version}"`,
  upstream_last_modified: null,
  lifetime_seconds: 3600,
  fresh_until: now + HOUR,
});

async function registered(accountId: string): Promise<OriginRecord> {
  return createOrigin(env, { account_id: accountId, name: "shop", kind: "http", base_url: "https://images.example/", s3_region: null, s3_access_key_id: null, s3_secret_sealed: null });
}

/** Runs the file shard's feed and waits until the report holds every path as the shard has it. */
async function pathsReportFed(accountId: string): Promise<ReportedPath[]> {
  await runDurableObjectAlarm(fileShard(env, accountId));
  const query = "SELECT path, status, version, r2_key, fresh_until FROM origin_objects";
  const inShard = await fileShardRows<ReportedPath>(accountId, `${query} ORDER BY path`);
  await vi.waitFor(
    async () => {
      const { results } = await env.DB.prepare(`${query} WHERE account_id = ? ORDER BY path`).bind(accountId).all<ReportedPath>();
      expect(results).toEqual(inShard);
    },
    { timeout: 10_000, interval: 50 },
  );
  return inShard;
}

describe("an account's origins in its file shard", () => {
  it("imports the origins and paths the shared database held before the shard, once", async () => {
    const { accountId } = await seedCaller();
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO origins (id, account_id, name, kind, base_url, created_at) VALUES ('orig_beforetheshard0000', ?, 'old', 'http', 'https://old.example/', ?)").bind(accountId, now),
      env.DB.prepare(
        "INSERT INTO origin_objects (origin_id, path, account_id, status, version, r2_key, size_bytes, content_type, lifetime_seconds, fresh_until, fetched_at) VALUES ('orig_beforetheshard0000', '/a.png', ?, 'ready', 'v1', 'k/v1', 10, 'image/png', 3600, ?, ?)",
      ).bind(accountId, now + HOUR, now),
    ]);
    const { origin, known } = await findOriginPath(env, accountId, "old", "/a.png");
    expect([origin.id, origin.base_url, known]).toEqual(["orig_beforetheshard0000", "https://old.example/", expect.objectContaining({ status: "ready", version: "v1", r2_key: "k/v1" })]);
    // Rows the shared database gains later are not imported again.
    await env.DB.prepare("INSERT INTO origins (id, account_id, name, kind, base_url, created_at) VALUES ('orig_plantedafterimport', ?, 'later', 'http', 'https://later.example/', ?)").bind(accountId, now).run();
    expect((await listOrigins(env, accountId)).map((o) => o.name)).toEqual(["old"]);
    // Imported rows are the report's already: nothing is fed back.
    expect(await fileShardRows(accountId, "SELECT * FROM origin_object_changes")).toEqual([]);
  });

  it("refuses a second origin of the same name, and finds none in another account", async () => {
    const { accountId } = await seedCaller();
    const stranger = await seedCaller();
    await registered(accountId);
    await expect(registered(accountId)).rejects.toMatchObject({ slug: "conflict" });
    await expect(findOrigin(env, stranger.accountId, "shop")).rejects.toMatchObject({ slug: "not_found" });
  });

  it("feeds every path's change to the report, keeps a dropped path as dropped, and a late copy of an older change changes nothing", async () => {
    const { accountId } = await seedCaller();
    const origin = await registered(accountId);
    const now = Date.now();
    await saveReadyObject(env, origin, "/a.png", ready("v1", now), now);
    await saveReadyObject(env, origin, "/b.png", ready("v2", now), now);
    expect(await pathsReportFed(accountId)).toEqual([
      { path: "/a.png", status: "ready", version: "v1", r2_key: "k/v1", fresh_until: now + HOUR },
      { path: "/b.png", status: "ready", version: "v2", r2_key: "k/v2", fresh_until: now + HOUR },
    ]);

    expect(await markObjectsStale(env, origin, { paths: ["/b.png"] })).toEqual(["/b.png"]);
    expect(await dropOriginObjects(env, origin, { prefix: "/a" })).toEqual([{ path: "/a.png", r2_key: "k/v1", version: "v1" }]);
    expect(await currentVersion(env, origin, "/a.png")).toBeNull();
    expect((await findOriginPath(env, accountId, "shop", "/a.png")).known).toBeNull();
    const fed = await pathsReportFed(accountId);
    expect(fed).toEqual([
      { path: "/a.png", status: "dropped", version: null, r2_key: null, fresh_until: 0 },
      { path: "/b.png", status: "ready", version: "v2", r2_key: "k/v2", fresh_until: 0 },
    ]);

    const { fed_seq } = (await env.DB.prepare("SELECT fed_seq FROM origin_objects WHERE origin_id = ? AND path = '/a.png'").bind(origin.id).first<{ fed_seq: number }>())!;
    const older: ShardOriginObjectRow = {
      originId: origin.id,
      path: "/a.png",
      status: "ready",
      version: "v1",
      r2Key: "k/v1",
      sizeBytes: 10,
      contentType: "image/png",
      upstreamEtag: null,
      upstreamLastModified: null,
      lifetimeSeconds: 3600,
      freshUntil: now + HOUR,
      fetchedAt: now,
    };
    const late = originObjectFeedMessage(accountId, [{ seq: fed_seq - 1, row: older }]);
    await consumeLedgerFeed(createMessageBatch(LEDGER_FEED_QUEUE, [{ id: "late", timestamp: new Date(), attempts: 2, body: late }]), env.DB);
    const after = await env.DB.prepare("SELECT status, r2_key FROM origin_objects WHERE origin_id = ? AND path = '/a.png'").bind(origin.id).first();
    expect(after).toEqual({ status: "dropped", r2_key: null });
  });
});
