// Purge by URL in the Cloudflare zone that holds the edge cache. The Cache API's delete reaches
// only the data centre that runs it; Cloudflare's purge-by-URL drops the same keys everywhere.
// It runs when the zone and a token are configured (CF_ZONE_ID, CF_API_TOKEN); its outcome is
// part of the purge's reply, failures included, since a key it missed is served elsewhere until
// its max-age runs out.
import { z } from "@hono/zod-openapi";
import type { Bindings } from "../env.ts";
import { inChunks } from "../db/in-chunks.ts";

export type ZonePurgeEnv = Pick<Bindings, "CF_ZONE_ID" | "CF_API_TOKEN" | "CF_API_BASE_URL">;

// Cloudflare's per-request maximum of purge operations on every plan (Enterprise allows 500):
// https://developers.cloudflare.com/cache/how-to/purge-cache/#availability-and-limits
export const URLS_PER_PURGE_CALL = 100;
// Each call is bounded, so a hanging API cannot hold the purge request open.
const CALL_TIMEOUT_MS = 10_000;
const DEFAULT_API_BASE_URL = "https://api.cloudflare.com/client/v4";

export const cdnPurgeSchema = z
  .object({
    status: z.enum(["not_configured", "purged", "failed"]).openapi({
      description:
        "`not_configured`: the service has no Cloudflare zone token, so only the data centre that ran the call was purged. `purged`: Cloudflare accepted every URL. `failed`: Cloudflare refused or could not be reached for some or all of them (see `error`); those stay cached elsewhere until they expire.",
    }),
    urls_purged: z.number().int().openapi({ description: "Cache URLs Cloudflare accepted for purging in every data centre." }),
    urls_not_purged: z.number().int().openapi({ description: "Cache URLs that were not purged beyond this data centre." }),
    error: z.string().nullable().openapi({ description: "Why Cloudflare's purge failed; null otherwise." }),
  })
  .openapi("CdnPurge");

export type CdnPurge = z.infer<typeof cdnPurgeSchema>;

// Cloudflare's v4 envelope: only what the outcome needs is read, and a reply without it is a failure.
const apiReplySchema = z.object({
  success: z.boolean(),
  errors: z.array(z.object({ code: z.number().optional(), message: z.string() })).default([]),
});

/** Why one call failed, or null when Cloudflare accepted its URLs. */
async function purgeCall(env: ZonePurgeEnv, zoneId: string, token: string, files: string[]): Promise<string | null> {
  const base = (env.CF_API_BASE_URL || DEFAULT_API_BASE_URL).replace(/\/+$/, "");
  let res: Response;
  try {
    res = await fetch(`${base}/zones/${encodeURIComponent(zoneId)}/purge_cache`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ files }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return timedOut ? `Cloudflare's API did not answer within ${CALL_TIMEOUT_MS / 1000} s.` : `Cloudflare's API could not be reached: ${error instanceof Error ? error.message : String(error)}.`;
  }
  const text = await res.text();
  let parsed: z.infer<typeof apiReplySchema> | null = null;
  try {
    const result = apiReplySchema.safeParse(JSON.parse(text));
    if (result.success) parsed = result.data;
  } catch {
    parsed = null;
  }
  if (parsed === null) return `Cloudflare's API answered ${res.status} without its JSON envelope.`;
  if (res.ok && parsed.success) return null;
  const reasons = parsed.errors.map((e) => (e.code === undefined ? e.message : `${e.code} ${e.message}`)).join("; ");
  return `Cloudflare's API answered ${res.status}${reasons ? `: ${reasons}` : ""}.`;
}

/**
 * Purges these cache URLs in every data centre, in calls of at most URLS_PER_PURGE_CALL. After a
 * failed call the rest are not sent (a rate limit or a refused token would refuse them too) and
 * count as not purged.
 */
export async function purgeZoneUrls(env: ZonePurgeEnv, urls: readonly string[]): Promise<CdnPurge> {
  const unique = [...new Set(urls)];
  const zoneId = env.CF_ZONE_ID ?? "";
  const token = env.CF_API_TOKEN ?? "";
  if (zoneId === "" && token === "") return { status: "not_configured", urls_purged: 0, urls_not_purged: unique.length, error: null };
  if (zoneId === "" || token === "") {
    const missing = zoneId === "" ? "CF_ZONE_ID" : "CF_API_TOKEN";
    return { status: "failed", urls_purged: 0, urls_not_purged: unique.length, error: `The service's Cloudflare purge is half configured: ${missing} is not set.` };
  }
  let purged = 0;
  for (const batch of inChunks(unique, URLS_PER_PURGE_CALL)) {
    const error = await purgeCall(env, zoneId, token, batch);
    if (error !== null) return { status: "failed", urls_purged: purged, urls_not_purged: unique.length - purged, error };
    purged += batch.length;
  }
  return { status: "purged", urls_purged: purged, urls_not_purged: 0, error: null };
}
