// pg_<n> through the transform path: a stored PDF is served one page at a time, made at the origin
// (MuPDF), as PNG unless f_ names a format; a page past the last is a problem and no charge.
import { fileShardRows } from "../test-support/shard-rows.ts";
import { describe, expect, it } from "vitest";
import { IMAGE_SOURCE_MAX_BYTES } from "../../contracts/image-options.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { decodePixels } from "../edge-image/codecs.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { seedSource, transformCharges, transformUrl } from "../test-support/transform-requests.ts";
import { twoPagePdf } from "../test-support/two-page-pdf.ts";

describe("GET /v1/image/t/{key_id}/pg_<n>/{file_id}", () => {
  it("serves the asked page of a PDF file as PNG at the asked width, billed once", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, twoPagePdf(), "application/pdf");
    const res = await api(transformUrl(caller, "w_306,pg_2", fileId));
    expect([res.status, res.headers.get("Content-Type")]).toEqual([200, "image/png"]);
    const pixels = await decodePixels("png", new Uint8Array(await res.arrayBuffer()));
    expect([pixels.width, pixels.height]).toEqual([306, 396]);
    const at = (x: number, y: number) => [...pixels.data.subarray((y * pixels.width + x) * 4, (y * pixels.width + x) * 4 + 3)];
    expect(at(150, 10)).toEqual([0, 0, 255]);
    expect(at(150, 390)).toEqual([255, 255, 255]);
    const first = await api(transformUrl(caller, "pg_1,w_306", fileId));
    const page1 = await decodePixels("png", new Uint8Array(await first.arrayBuffer()));
    expect([...page1.data.subarray(200 * 306 * 4 + 20, 200 * 306 * 4 + 23)]).toEqual([255, 0, 0]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 2, micros: 1600 });
  });

  it("refuses a page past the last with 422 page_out_of_range, and pg_0 with 400, charging nothing", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, twoPagePdf(), "application/pdf");
    const past = await api(transformUrl(caller, "w_100,pg_3", fileId));
    expect(past.status).toBe(422);
    const problem = await problemOf(past);
    expect(problem.type).toMatch(/page_out_of_range$/);
    expect(problem).toMatchObject({ page: 3, pages: 2 });
    const zero = await api(transformUrl(caller, "w_100,pg_0", fileId));
    expect(zero.status).toBe(400);
    expect((await problemOf(zero)).errors).toEqual([{ pointer: "/transform/pg_0", detail: "pg_ must be a whole number from 1 to 50000" }]);
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("refuses a PDF file without pg_ with 415 naming page", async () => {
    const caller = await seedCaller();
    const fileId = await seedSource(caller, twoPagePdf(), "application/pdf");
    const res = await api(transformUrl(caller, "w_100", fileId));
    expect(res.status).toBe(415);
    expect((await problemOf(res)).detail).toContain("pg_<n>");
    expect(await transformCharges(caller.accountId)).toEqual({ n: 0, micros: 0 });
  });

  it("holds a PDF source to the PDF endpoints' byte limit, not the image one", async () => {
    const caller = await seedCaller();
    const past64Id = await seedSource(caller, twoPagePdf(), "application/pdf");
    const pastPdfId = await seedSource(caller, twoPagePdf(), "application/pdf");
    // The size the row records is what the edge's limit reads; storing 64 MB to prove it would only be slow.
    const recordSize = (fileId: string, bytes: number) => fileShardRows(caller.accountId, "UPDATE files SET size_bytes = ? WHERE id = ?", bytes, fileId);
    await recordSize(past64Id, IMAGE_SOURCE_MAX_BYTES + 1);
    await recordSize(pastPdfId, PDF_MAX_BYTES + 1);
    const past64 = await api(transformUrl(caller, "w_100,pg_1", past64Id));
    expect([past64.status, past64.headers.get("Content-Type")]).toEqual([200, "image/png"]);
    await past64.arrayBuffer();
    const pastPdf = await api(transformUrl(caller, "w_120,pg_1", pastPdfId));
    expect(pastPdf.status).toBe(413);
    expect(await problemOf(pastPdf)).toMatchObject({ type: "https://pixelpress.dev/problems/image_too_large", limit_bytes: PDF_MAX_BYTES });
    expect(await transformCharges(caller.accountId)).toEqual({ n: 1, micros: 800 });
  });
});
