import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { storeDerivative } from "../derivatives/derivative-store.ts";
import { matchEdgeCache, putEdgeCache } from "../derivatives/edge-cache.ts";
import { deleteFile } from "../files/file-lifecycle.ts";
import { seedCaller } from "../test-support/api.ts";
import { derivativeCount } from "../test-support/derivative-count.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { seedSource, transformUrl } from "../test-support/transform-requests.ts";
import { readTransformRequest } from "./read-transform-request.ts";
import { resolveTransformSource } from "./transform-source.ts";

describe("a stored file's settle, after the derivative is kept and cached", () => {
  it("purges the request's own cache entry when the file was deleted between the keep and the cache put", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");
    const request = await readTransformRequest(env, new Request(`http://api.test${transformUrl(caller, "w_12", fileId)}`));
    const source = await resolveTransformSource(env, request);
    const meta = { etag: '"kept"', contentType: "image/webp", bytes: 1, vary: [] };
    await storeDerivative(env, source.identity, { body: new Uint8Array([1]), size: 1, contentType: "image/webp", etag: '"kept"' });
    // The deletion finds the row and purges its URL, before this request has put anything there.
    await deleteFile(env, caller.accountId, fileId);
    expect(await derivativeCount(env, caller.accountId, fileId)).toBe(0);
    await putEdgeCache(request.cacheKey, new Uint8Array([1]), meta, source.cacheUntil);
    expect(await matchEdgeCache(request.cacheKey, [])).not.toBeNull();

    await source.settle();
    expect(await matchEdgeCache(request.cacheKey, [])).toBeNull();
  });

  it("leaves the entry of a file that lives", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("rgb.png"), "image/png");
    const request = await readTransformRequest(env, new Request(`http://api.test${transformUrl(caller, "w_13", fileId)}`));
    const source = await resolveTransformSource(env, request);
    await putEdgeCache(request.cacheKey, new Uint8Array([1]), { etag: '"live"', contentType: "image/webp", bytes: 1, vary: [] }, source.cacheUntil);
    await source.settle();
    expect(await matchEdgeCache(request.cacheKey, [])).not.toBeNull();
  });
});
