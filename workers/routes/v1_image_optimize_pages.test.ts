// options.page on /v1/image/optimize: a PDF is an image one page at a time.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { findAccount } from "../accounts/account-store.ts";
import { decodePixels } from "../edge-image/codecs.ts";
import { decodeBase64, encodeBase64 } from "../../contracts/encoding/base64.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { twoPagePdf } from "../test-support/two-page-pdf.ts";

describe("POST /v1/image/optimize with options.page", () => {
  it("makes a PNG of the asked PDF page, billed by the usual rule", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const pdf = twoPagePdf();
    const res = await api("/v1/image/optimize", { key: caller, json: { source: { base64: encodeBase64(pdf) }, options: { page: 2, width: 200, output: "base64" } } });
    expect(res.status).toBe(200);
    const body = await res.json<{ format: string; width: number; base64: string; stats: { original_format: string; output_bytes: number }; billing: { charged_micros: number } }>();
    expect([body.format, body.width, body.stats.original_format]).toEqual(["png", 200, "pdf"]);
    const pixels = await decodePixels("png", decodeBase64(body.base64));
    expect([pixels.width, pixels.height]).toEqual([200, 259]);
    expect([...pixels.data.subarray((5 * 200 + 100) * 4, (5 * 200 + 100) * 4 + 3)]).toEqual([0, 0, 255]);
    // A page's PNG is larger than this tiny vector PDF: not smaller, so not charged.
    const charged = body.stats.output_bytes < pdf.length ? 800 : 0;
    expect(body.billing.charged_micros).toBe(charged);
    expect((await findAccount(env.DB, caller.accountId))!.balance_micros).toBe(10_000 - charged);
  });

  it("refuses a page past the last with 422 and a PDF without page with 415 naming it, charging nothing", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const source = { base64: encodeBase64(twoPagePdf()) };
    const past = await problemOf(await api("/v1/image/optimize", { key: caller, json: { source, options: { page: 3 } } }));
    expect([past.status, past.type]).toEqual([422, expect.stringMatching(/page_out_of_range$/)]);
    const none = await problemOf(await api("/v1/image/optimize", { key: caller, json: { source } }));
    expect(none.status).toBe(415);
    expect(none.detail).toContain("page");
    expect((await findAccount(env.DB, caller.accountId))!.balance_micros).toBe(10_000);
  });
});
