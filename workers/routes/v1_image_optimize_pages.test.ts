// options.page on /v1/image/optimize: a PDF is an image one page at a time.
import { env } from "cloudflare:test";
import { fileShardRows } from "../test-support/shard-rows.ts";
import { describe, expect, it } from "vitest";
import { decodePixels } from "../edge-image/codecs.ts";
import { decodeBase64, encodeBase64 } from "../../contracts/encoding/base64.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { twoPagePdf } from "../test-support/two-page-pdf.ts";
import { seedSource } from "../test-support/transform-requests.ts";
import { IMAGE_SOURCE_MAX_BYTES } from "../../contracts/image-options.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { balanceOf } from "../test-support/account-books.ts";

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
    expect(await balanceOf(caller.accountId)).toBe(10_000 - charged);
  });

  it("refuses a page past the last with 422 and a PDF without page with 415 naming it, charging nothing", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const source = { base64: encodeBase64(twoPagePdf()) };
    const past = await problemOf(await api("/v1/image/optimize", { key: caller, json: { source, options: { page: 3 } } }));
    expect([past.status, past.type]).toEqual([422, expect.stringMatching(/page_out_of_range$/)]);
    const none = await problemOf(await api("/v1/image/optimize", { key: caller, json: { source } }));
    expect(none.status).toBe(415);
    expect(none.detail).toContain("page");
    expect(await balanceOf(caller.accountId)).toBe(10_000);
  });

  it("takes a stored PDF up to the PDF endpoints' byte limit, and any other image up to the image one", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const pdfId = await seedSource(caller, twoPagePdf(), "application/pdf");
    const pngId = await seedSource(caller, await (await fetch(`${env.TEST_GENERATED_FILES_URL}/rgb.png`)).bytes(), "image/png");
    // The size the row records is what the limit reads; storing 64 MB to prove it would only be slow.
    const recordSize = (fileId: string, bytes: number) => fileShardRows(caller.accountId, "UPDATE files SET size_bytes = ? WHERE id = ?", bytes, fileId);
    const optimize = (fileId: string, options: Record<string, unknown>) => api("/v1/image/optimize", { key: caller, json: { source: { file_id: fileId }, options: { ...options, keep_source: true, output: "base64" } } });
    await recordSize(pdfId, IMAGE_SOURCE_MAX_BYTES + 1);
    const past64 = await optimize(pdfId, { page: 1, width: 100 });
    expect(past64.status).toBe(200);
    expect(await past64.json()).toMatchObject({ format: "png", width: 100 });
    await recordSize(pdfId, PDF_MAX_BYTES + 1);
    expect((await problemOf(await optimize(pdfId, { page: 1, width: 100 }))).status).toBe(413);
    await recordSize(pngId, IMAGE_SOURCE_MAX_BYTES + 1);
    expect((await problemOf(await optimize(pngId, { width: 10 }))).status).toBe(413);
  });
});
