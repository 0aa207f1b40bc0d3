import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { seedSource, transformUrl } from "../test-support/transform-requests.ts";
import { earlyEdgeHit } from "./early-edge-hit.ts";

const REQUEST_ID = /^req_[0-9A-Za-z]{20}$/;

describe("a transform URL's edge-cache hit, answered before the app's dispatch", () => {
  it("answers a hit with the route's reply and a request id of its own, and nothing else", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("photo.png"), "image/png");
    const url = `http://api.test${transformUrl(caller, "w_40,f_webp", fileId)}`;

    // Not cached yet: left to the app, which computes and caches it.
    expect(await earlyEdgeHit(new Request(url), env)).toBeNull();
    const computed = await api(transformUrl(caller, "w_40,f_webp", fileId));
    expect(computed.headers.get("X-Cache-Tier")).toBe("compute");
    const bytes = new Uint8Array(await computed.arrayBuffer());

    const hit = await earlyEdgeHit(new Request(url), env);
    expect(hit?.status).toBe(200);
    expect(hit?.headers.get("X-Cache-Tier")).toBe("edge");
    expect(hit?.headers.get("ETag")).toBe(computed.headers.get("ETag"));
    expect(hit?.headers.get("Cache-Control")).toBe(computed.headers.get("Cache-Control"));
    expect(new Uint8Array(await hit!.arrayBuffer())).toEqual(bytes);
    const ids = [hit!.headers.get("X-Request-Id"), (await earlyEdgeHit(new Request(url), env))!.headers.get("X-Request-Id")];
    expect(ids[0]).toMatch(REQUEST_ID);
    expect(ids[1]).toMatch(REQUEST_ID);
    expect(ids[0]).not.toBe(ids[1]);

    const notModified = await earlyEdgeHit(new Request(url, { headers: { "If-None-Match": computed.headers.get("ETag")! } }), env);
    expect(notModified?.status).toBe(304);

    // HEAD, other methods, other paths and every problem are the app's to answer.
    expect(await earlyEdgeHit(new Request(url, { method: "HEAD" }), env)).toBeNull();
    expect(await earlyEdgeHit(new Request(url, { method: "DELETE" }), env)).toBeNull();
    expect(await earlyEdgeHit(new Request(`http://api.test/v1/files/${fileId}`), env)).toBeNull();
    expect(await earlyEdgeHit(new Request(`http://api.test${transformUrl(caller, "w_40,f_webp,bogus_1", fileId)}`), env)).toBeNull();
    const otherAccount = await seedCaller();
    expect(await earlyEdgeHit(new Request(`http://api.test${transformUrl(otherAccount, "w_40,f_webp", fileId)}`), env)).toBeNull();
  });

  it("leaves a cached transform on a PDF alias host to the app, which refuses it", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, await generatedBytes("photo.png"), "image/png");
    const path = transformUrl(caller, "w_24,f_webp", fileId);
    await (await api(path)).arrayBuffer();
    expect((await earlyEdgeHit(new Request(`http://api.test${path}`), env))?.status).toBe(200);

    const pdfHost = { PDF_ALIAS_HOSTS: "pdf.alias.test" };
    expect(await earlyEdgeHit(new Request(`http://pdf.alias.test${path}`), { ...env, ...pdfHost })).toBeNull();
    const refused = await fetchWithEnv(pdfHost, new Request(`http://pdf.alias.test${path}`), createApp());
    const problem = await problemOf(refused);
    expect(problem.status).toBe(404);
    expect(problem.request_id).toBe(refused.headers.get("X-Request-Id"));
  });
});
