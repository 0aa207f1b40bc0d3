import { describe, expect, it } from "vitest";
import { DEFAULT_FRESH_SECONDS, grantedSeconds, MAX_FRESH_SECONDS, MIN_FRESH_SECONDS } from "./freshness.ts";

const granted = (headers: Record<string, string>) => grantedSeconds(new Headers(headers), Date.parse("2026-11-25T00:00:00Z"));

describe("grantedSeconds", () => {
  it("reads s-maxage before max-age, clamped to 60 s .. 30 days", () => {
    expect(granted({ "Cache-Control": "public, max-age=600" })).toBe(600);
    expect(granted({ "Cache-Control": "max-age=600, s-maxage=1200" })).toBe(1200);
    expect(granted({ "Cache-Control": "max-age=5" })).toBe(MIN_FRESH_SECONDS);
    expect(granted({ "Cache-Control": "max-age=315360000, immutable" })).toBe(MAX_FRESH_SECONDS);
    expect(granted({ "Cache-Control": "no-cache" })).toBe(MIN_FRESH_SECONDS);
  });

  it("falls back to Expires against Date, and says nothing without either", () => {
    expect(granted({ Date: "Tue, 24 Nov 2026 00:00:00 GMT", Expires: "Tue, 24 Nov 2026 02:00:00 GMT" })).toBe(7200);
    expect(granted({ Expires: "0" })).toBe(MIN_FRESH_SECONDS);
    expect(granted({})).toBeNull();
    expect(DEFAULT_FRESH_SECONDS).toBe(86_400);
  });
});
