import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RecordedPurge } from "../test-support/cloudflare-api-standin.ts";
import { purgeZoneUrls, URLS_PER_PURGE_CALL } from "./zone-purge.ts";

// The stand-in on loopback (workers/test-support/cloudflare-api-standin.ts) answers by the zone
// id's first word and records each zone's requests.
let zones = 0;
const zone = (kind: "ok" | "denied" | "limited" | "garbled") => `${kind}-${Date.now()}-${++zones}`;

async function recorded(zoneId: string): Promise<RecordedPurge[]> {
  const standIn = env.CF_API_BASE_URL.replace(/\/client\/v4$/, "");
  return (await fetch(`${standIn}/recorded/${encodeURIComponent(zoneId)}`)).json();
}

const urls = (n: number) => Array.from({ length: n }, (_, i) => `http://api.test/v1/image/t/~cache/acct_x/file_${i}/w_10`);

describe("purge by URL in the Cloudflare zone", () => {
  it("sends every URL once, in calls of at most the per-call limit, with the zone token", async () => {
    const zoneId = zone("ok");
    const asked = [...urls(250), ...urls(3)];
    const outcome = await purgeZoneUrls({ ...env, CF_ZONE_ID: zoneId, CF_API_TOKEN: "token-1" }, asked);

    expect(outcome).toEqual({ status: "purged", urls_purged: 250, urls_not_purged: 0, error: null });
    const calls = await recorded(zoneId);
    expect(calls.map((c) => (c.body as { files: string[] }).files.length)).toEqual([URLS_PER_PURGE_CALL, URLS_PER_PURGE_CALL, 50]);
    for (const call of calls) {
      expect(call).toMatchObject({ method: "POST", path: `/client/v4/zones/${zoneId}/purge_cache`, authorization: "Bearer token-1", contentType: "application/json" });
    }
    expect(calls.flatMap((c) => (c.body as { files: string[] }).files)).toEqual(urls(250));
  });

  it("reports Cloudflare's refusal with its status and message, and nothing as purged", async () => {
    const zoneId = zone("denied");
    const outcome = await purgeZoneUrls({ ...env, CF_ZONE_ID: zoneId, CF_API_TOKEN: "wrong" }, urls(150));
    expect(outcome).toEqual({ status: "failed", urls_purged: 0, urls_not_purged: 150, error: "Cloudflare's API answered 403: 10000 Authentication error." });
    // The rest are not sent after a refusal.
    expect(await recorded(zoneId)).toHaveLength(1);
  });

  it("counts what went before a rate limit as purged and the rest as not", async () => {
    const zoneId = zone("limited");
    const outcome = await purgeZoneUrls({ ...env, CF_ZONE_ID: zoneId, CF_API_TOKEN: "token-2" }, urls(250));
    expect(outcome).toMatchObject({ status: "failed", urls_purged: 100, urls_not_purged: 150 });
    expect(outcome.error).toMatch(/^Cloudflare's API answered 429: 971 /);
    expect(await recorded(zoneId)).toHaveLength(2);
  });

  it("fails a reply without Cloudflare's envelope and an API that cannot be reached", async () => {
    const garbled = await purgeZoneUrls({ ...env, CF_ZONE_ID: zone("garbled"), CF_API_TOKEN: "t" }, urls(2));
    expect(garbled).toEqual({ status: "failed", urls_purged: 0, urls_not_purged: 2, error: "Cloudflare's API answered 200 without its JSON envelope." });
    // Port 9 (discard) on loopback: nothing listens there.
    const unreachable = await purgeZoneUrls({ CF_API_BASE_URL: "http://127.0.0.1:9/client/v4", CF_ZONE_ID: zone("ok"), CF_API_TOKEN: "t" }, urls(2));
    expect(unreachable).toMatchObject({ status: "failed", urls_purged: 0, urls_not_purged: 2 });
    expect(unreachable.error).toMatch(/^Cloudflare's API could not be reached/);
  });

  it("sends nothing without a zone and a token, and says which one is missing when only one is set", async () => {
    expect(await purgeZoneUrls(env, urls(3))).toEqual({ status: "not_configured", urls_purged: 0, urls_not_purged: 3, error: null });
    const zoneId = zone("ok");
    expect(await purgeZoneUrls({ ...env, CF_ZONE_ID: zoneId }, urls(3))).toEqual({
      status: "failed",
      urls_purged: 0,
      urls_not_purged: 3,
      error: "The service's Cloudflare purge is half configured: CF_API_TOKEN is not set.",
    });
    expect(await recorded(zoneId)).toEqual([]);
  });

  it("makes no call when there is nothing to purge", async () => {
    const zoneId = zone("ok");
    expect(await purgeZoneUrls({ ...env, CF_ZONE_ID: zoneId, CF_API_TOKEN: "t" }, [])).toEqual({ status: "purged", urls_purged: 0, urls_not_purged: 0, error: null });
    expect(await recorded(zoneId)).toEqual([]);
  });
});
