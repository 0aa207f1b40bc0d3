import { describe, expect, it } from "vitest";
import { derivativeResponse, matchesIfNoneMatch, strongEtag, type DerivativeMeta } from "./derivative-response.ts";

const meta: DerivativeMeta = { etag: strongEtag("ab".repeat(32)), contentType: "image/webp", bytes: 3, vary: ["Accept"] };

describe("derivative responses", () => {
  it("matches If-None-Match lists, weak forms and *", () => {
    expect(meta.etag).toBe(`"${"ab".repeat(16)}"`);
    expect(matchesIfNoneMatch(`"x", ${meta.etag}`, meta.etag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${meta.etag}`, meta.etag)).toBe(true);
    expect(matchesIfNoneMatch("*", meta.etag)).toBe(true);
    expect(matchesIfNoneMatch('"x"', meta.etag)).toBe(false);
    expect(matchesIfNoneMatch(undefined, meta.etag)).toBe(false);
  });

  it("sends 304 without a body but with the validators and Vary", async () => {
    const res = derivativeResponse(new Uint8Array([1, 2, 3]), meta, "r2", meta.etag);
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
    expect([res.headers.get("ETag"), res.headers.get("Vary"), res.headers.get("X-Cache"), res.headers.get("X-Cache-Tier")]).toEqual([meta.etag, "Accept", "HIT", "r2"]);
    const full = derivativeResponse(new Uint8Array([1, 2, 3]), { ...meta, vary: [] }, "compute", null);
    expect([full.status, full.headers.get("Content-Length"), full.headers.get("Vary"), full.headers.get("X-Cache")]).toEqual([200, "3", null, "MISS"]);
  });

  it("names every header the bytes depend on in one Vary", () => {
    const both = derivativeResponse(new Uint8Array([1]), { ...meta, vary: ["Accept", "Save-Data"] }, "edge", null);
    expect(both.headers.get("Vary")).toBe("Accept, Save-Data");
    expect([both.headers.get("Accept-CH"), both.headers.get("Critical-CH")]).toEqual([null, null]);
  });

  it("asks for the client hints it varies on, and marks the size hints critical, on a 304 too", () => {
    const vary = ["Save-Data", "ECT", "Sec-CH-Width", "Sec-CH-Viewport-Width", "Sec-CH-DPR"] as const;
    for (const res of [derivativeResponse(new Uint8Array([1]), { ...meta, vary }, "edge", null), derivativeResponse(null, { ...meta, vary }, "edge", meta.etag)]) {
      expect([res.headers.get("Vary"), res.headers.get("Accept-CH"), res.headers.get("Critical-CH")]).toEqual([
        "Save-Data, ECT, Sec-CH-Width, Sec-CH-Viewport-Width, Sec-CH-DPR",
        "ECT, Sec-CH-Width, Sec-CH-Viewport-Width, Sec-CH-DPR",
        "Sec-CH-Width, Sec-CH-Viewport-Width, Sec-CH-DPR",
      ]);
    }
  });
});

describe("an origin path's derivative", () => {
  it("is cached for what remains of its original's freshness, never immutable, and says when it is stale", () => {
    const now = Date.now();
    const fresh = derivativeResponse(new Uint8Array([1]), { ...meta, freshUntil: now + 90_500 }, "edge", null);
    expect(fresh.headers.get("Cache-Control")).toMatch(/^public, max-age=(89|90)$/);
    expect(fresh.headers.get("X-Cache")).toBe("HIT");
    const stale = derivativeResponse(new Uint8Array([1]), { ...meta, freshUntil: now - 5_000, stale: true }, "r2", null);
    expect([stale.headers.get("Cache-Control"), stale.headers.get("X-Cache")]).toEqual(["public, max-age=0", "STALE"]);
  });
});
