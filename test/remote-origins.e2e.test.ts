import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPlatform } from "../scripts/lib/local-platform.ts";
import { openAccount } from "../workers/billing/open-account.ts";
import { ledgerFeedSettled } from "../scripts/soak/ledger-feed-settled.ts";
import { createKey } from "../workers/keys/key-store.ts";
import { activeKeyId } from "./support/edge-account.ts";

// A customer's image server on loopback (the pair runs with loopback URLs allowed), registered as
// a remote origin: what the transform URL fetches, when it asks again, and what it does when the
// server changes its bytes, forgets a path, fails or points inward.
const edge = inject("edgeUrl");
const auth = { Authorization: `Bearer ${inject("apiKey")}`, "Content-Type": "application/json" };
const accountId = inject("accountId");
const origin = `e2e-${Date.now().toString(36)}`;

interface Seen {
  path: string;
  ifNoneMatch: string | undefined;
}

const seen: Seen[] = [];
let photo: { bytes: Buffer; etag: string };
let down = false;
let server: Server;
let serverUrl: string;
let keyId: string;
let platform: Awaited<ReturnType<typeof openPlatform>>;

const solid = (r: number, g: number, b: number) => sharp({ create: { width: 200, height: 120, channels: 3, background: { r, g, b } } }).jpeg().toBuffer();

beforeAll(async () => {
  photo = { bytes: await solid(220, 40, 40), etag: '"v1"' };
  server = createServer((req, res) => {
    const path = req.url ?? "";
    seen.push({ path, ifNoneMatch: req.headers["if-none-match"] });
    if (down) {
      res.writeHead(503).end("maintenance");
    } else if (path === "/products/photo.jpg") {
      if (req.headers["if-none-match"] === photo.etag) {
        res.writeHead(304, { ETag: photo.etag, "Cache-Control": "max-age=600" }).end();
      } else {
        res.writeHead(200, { "Content-Type": "image/jpeg", ETag: photo.etag, "Cache-Control": "max-age=600", "Content-Length": photo.bytes.length }).end(photo.bytes);
      }
    } else if (path === "/inward.jpg") {
      res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data/" }).end();
    } else if (path === "/error-page.jpg") {
      res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><html><body>Sorry</body></html>");
    } else {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  keyId = await activeKeyId(edge, inject("apiKey"));
  platform = await openPlatform({ persistTo: inject("persistTo") });
});

afterAll(async () => {
  await platform?.dispose();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

const url = (transform: string, path: string, key = keyId) => `${edge}/v1/image/t/${key}/${transform}/${origin}${path}`;
const requestsFor = (path: string) => seen.filter((s) => s.path === path);

async function redOf(bytes: Uint8Array): Promise<number> {
  const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return data[0]!;
}

/** The account's charges for origin paths in the shared ledger report, once the shards' feed is quiet. */
async function originCharges(): Promise<number> {
  await ledgerFeedSettled(platform.env.DB);
  const row = await platform.env.DB.prepare("SELECT COUNT(*) AS n FROM ledger WHERE account_id = ? AND charge_key LIKE 'transform:orig%'").bind(accountId).first<{ n: number }>();
  return row!.n;
}

/** Makes the kept original stale, keeping it: a revalidating purge. */
async function revalidate(path: string): Promise<void> {
  const res = await fetch(`${edge}/v1/purge`, { method: "POST", headers: auth, body: JSON.stringify({ origin, paths: [path], revalidate: true }) });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ originals: 1, derivatives: 0 });
}

describe("remote origins against a server on loopback", () => {
  it("refuses an inward base URL at registration and registers the loopback server", async () => {
    const inward = await fetch(`${edge}/v1/origins`, { method: "POST", headers: auth, body: JSON.stringify({ name: `${origin}-x`, base_url: "http://10.1.2.3/" }) });
    expect(inward.status).toBe(422);
    const res = await fetch(`${edge}/v1/origins`, { method: "POST", headers: auth, body: JSON.stringify({ name: origin, base_url: serverUrl }) });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("serves a transform of the original, then the edge cache, fetching once", async () => {
    const miss = await fetch(url("w_64,f_webp", "/products/photo.jpg"));
    expect(miss.status).toBe(200);
    expect([miss.headers.get("X-Cache"), miss.headers.get("Content-Type")]).toEqual(["MISS", "image/webp"]);
    expect(miss.headers.get("Cache-Control")).toMatch(/^public, max-age=(59\d|600)$/);
    const bytes = new Uint8Array(await miss.arrayBuffer());
    expect((await sharp(bytes).metadata()).width).toBe(64);
    expect(await redOf(bytes)).toBeGreaterThan(180);
    const hit = await fetch(url("w_64,f_webp", "/products/photo.jpg"));
    expect(hit.headers.get("X-Cache")).toBe("HIT");
    expect(new Uint8Array(await hit.arrayBuffer())).toEqual(bytes);
    expect(requestsFor("/products/photo.jpg")).toEqual([{ path: "/products/photo.jpg", ifNoneMatch: undefined }]);
    expect(await originCharges()).toBe(1);
  });

  it("revalidates a stale original with If-None-Match; the server's 304 keeps every derivative and its charge", async () => {
    await revalidate("/products/photo.jpg");
    const other = await fetch(url("w_32", "/products/photo.jpg"));
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    expect(requestsFor("/products/photo.jpg").at(-1)).toEqual({ path: "/products/photo.jpg", ifNoneMatch: '"v1"' });
    // w_64's derivative is still kept in R2: evicted from this cache key's reach only by a purge.
    await ledgerFeedSettled(platform.env.DB);
    const derivatives = await platform.env.DB.prepare("SELECT COUNT(*) AS n FROM derivatives WHERE account_id = ? AND file_id LIKE 'orig%' AND dropped_at IS NULL").bind(accountId).first<{ n: number }>();
    expect(derivatives!.n).toBe(2);
    // The revalidation took w_64's edge entry; its kept derivative answers, not charged again.
    const kept = await fetch(url("w_64,f_webp", "/products/photo.jpg"));
    expect(kept.headers.get("X-Cache-Tier")).toBe("r2");
    await kept.arrayBuffer();
    expect(await originCharges()).toBe(2);
  });

  it("after the bytes change and a purge, serves the new bytes as a new version, billed anew", async () => {
    photo = { bytes: await solid(30, 40, 220), etag: '"v2"' };
    const purge = await fetch(`${edge}/v1/purge`, { method: "POST", headers: auth, body: JSON.stringify({ origin, paths: ["/products/photo.jpg"] }) });
    expect(await purge.json()).toEqual({ originals: 1, derivatives: 2, edge_entries: 2, cdn: { status: "not_configured", urls_purged: 0, urls_not_purged: 2, error: null } });
    const fresh = await fetch(url("w_64,f_webp", "/products/photo.jpg"));
    expect(fresh.headers.get("X-Cache")).toBe("MISS");
    expect(await redOf(new Uint8Array(await fresh.arrayBuffer()))).toBeLessThan(80);
    expect(await originCharges()).toBe(3);
  });

  it("remembers an upstream 404 instead of asking again", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url("w_64", "/missing.jpg"));
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }
    expect(requestsFor("/missing.jpg")).toHaveLength(1);
  });

  it("serves the stale copy while the server is down, and 502 with Retry-After for what it never had", async () => {
    await revalidate("/products/photo.jpg");
    down = true;
    try {
      const stale = await fetch(url("w_64,f_webp", "/products/photo.jpg").replace("w_64", "w_40"));
      expect(stale.status).toBe(200);
      expect(stale.headers.get("X-Cache")).toBe("STALE");
      expect(await redOf(new Uint8Array(await stale.arrayBuffer()))).toBeLessThan(80);
      const never = await fetch(url("w_64", "/products/other.jpg"));
      expect(never.status).toBe(502);
      expect(never.headers.get("Retry-After")).toMatch(/^\d+$/);
      await never.arrayBuffer();
    } finally {
      down = false;
    }
  });

  it("refuses a redirect to a private address and an HTML page with status 200, keeping nothing", async () => {
    const inward = await fetch(url("w_64", "/inward.jpg"));
    expect(inward.status).toBe(422);
    expect((await inward.json<{ type: string }>()).type).toMatch(/source_forbidden_address/);
    const page = await fetch(url("w_64", "/error-page.jpg"));
    expect(page.status).toBe(415);
    await page.arrayBuffer();
    await ledgerFeedSettled(platform.env.DB);
    const kept = await platform.env.DB.prepare("SELECT COUNT(*) AS n FROM origin_objects WHERE account_id = ? AND path IN ('/inward.jpg', '/error-page.jpg')").bind(accountId).first<{ n: number }>();
    expect(kept!.n).toBe(0);
  });

  it("serves a private S3-compatible bucket with signed requests, and refuses a wrong secret", async () => {
    // wrangler dev serves its local R2 bucket over S3 with these fixed credentials (wrangler.toml).
    const s3 = { endpoint: `${edge}/cdn-cgi/local/r2/s3`, bucket: "pixelpress-files", region: "auto", access_key_id: "pixelpress-local" };
    await platform.env.FILES.put(`e2e-s3/${origin}/photo.jpg`, await solid(40, 200, 40));
    const register = (name: string, secret: string) =>
      fetch(`${edge}/v1/origins`, { method: "POST", headers: auth, body: JSON.stringify({ name, s3: { ...s3, secret_access_key: secret } }) });
    expect((await register(`${origin}-s3`, "pixelpress-local-secret")).status).toBe(201);
    expect((await register(`${origin}-bad`, "not-the-secret")).status).toBe(201);
    const served = await fetch(`${edge}/v1/image/t/${keyId}/w_48,f_png/${origin}-s3/e2e-s3/${origin}/photo.jpg`);
    expect(served.status, await served.clone().text()).toBe(200);
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect((await sharp(bytes).metadata()).width).toBe(48);
    const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[1]!).toBeGreaterThan(150);
    const refused = await fetch(`${edge}/v1/image/t/${keyId}/w_48,f_png/${origin}-bad/e2e-s3/${origin}/photo.jpg`);
    expect(refused.status).toBe(502);
    expect((await refused.json<{ upstream_status: number }>()).upstream_status).toBe(403);
  });

  it("refuses another account's key id", async () => {
    const other = await openAccount(platform.env.DB, { name: "e2e stranger", plan: "pro", balanceMicros: 1_000_000 });
    const { record } = await createKey(platform.env.DB, other.id, { name: "stranger", scopes: null });
    const res = await fetch(url("w_64", "/products/photo.jpg", record.id));
    expect(res.status).toBe(404);
    await res.arrayBuffer();
  });
});
