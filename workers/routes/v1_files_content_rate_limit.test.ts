import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signedDownloadUrl } from "../files/download-signature.ts";
import { storeFile } from "../files/file-store.ts";
import { problemOf, seedCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { freezeClockInsideMinute } from "../test-support/frozen-clock.ts";

async function signedPath(accountId: string): Promise<string> {
  const bytes = crypto.getRandomValues(new Uint8Array(256));
  const record = await storeFile(env, { accountId, kind: "result", body: bytes, size: bytes.length, contentType: "image/png", filename: "a.png" });
  const url = new URL(await signedDownloadUrl(env.SIGNING_SECRET, "http://api.test", record));
  return url.pathname + url.search;
}

function download(path: string, address: string, limit = "2"): Promise<Response> {
  return fetchWithEnv({ RATE_LIMIT_PER_MINUTE: limit }, new Request(`http://api.test${path}`, { headers: { "CF-Connecting-IP": address } }));
}

describe("GET /v1/files/{file_id}/content is rate-limited without an API key", () => {
  it("limits one client address across files, with Retry-After, and never touches the owner's key window", async () => {
    freezeClockInsideMinute();
    const caller = await seedCaller();
    const paths = [await signedPath(caller.accountId), await signedPath(caller.accountId), await signedPath(caller.accountId)];
    expect((await download(paths[0]!, "198.51.100.7")).status).toBe(200);
    expect((await download(paths[1]!, "198.51.100.7")).status).toBe(200);
    const limited = await download(paths[2]!, "198.51.100.7");
    const problem = await problemOf(limited);
    expect(problem.status).toBe(429);
    expect(problem.detail).toContain("address");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await download(paths[2]!, "198.51.100.8")).status).toBe(200);
  });

  it("limits one file across addresses, counting only valid links", async () => {
    freezeClockInsideMinute();
    const caller = await seedCaller();
    const path = await signedPath(caller.accountId);
    const forged = path.replace(/sig=[^&]+/, "sig=AAAAAAAAAAAAAAAAAAAAAA");
    for (const address of ["203.0.113.1", "203.0.113.2"]) expect((await download(forged, address)).status).toBe(403);
    expect((await download(path, "203.0.113.3")).status).toBe(200);
    expect((await download(path, "203.0.113.4")).status).toBe(200);
    const problem = await problemOf(await download(path, "203.0.113.5"));
    expect(problem.status).toBe(429);
    expect(problem.detail).toContain("file");
  });
});
