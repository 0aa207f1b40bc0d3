import { describe, expect, it, vi } from "vitest";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { balanceOf } from "../test-support/account-books.ts";

async function pdfSource(name: string) {
  return { base64: encodeBase64(await generatedBytes(name)) };
}

function call(caller: TestCaller, path: string, body: unknown) {
  return api(path, { key: caller, json: body });
}

describe("POST /v1/pdf/analyze", () => {
  it("logs no error for a good analysis", async () => {
    const logged = vi.spyOn(console, "error");
    try {
      const caller = await seedCaller();
      const res = await call(caller, "/v1/pdf/analyze", { source: await pdfSource("photo-placed-small.pdf") });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      // Whatever the payload's reader was doing when the analysis came back has settled by now.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logged.mock.calls.map((args) => args.map(String).join(" "))).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });

  it("reports pages, images with placed DPI, and projections, for free", async () => {
    const caller = await seedCaller({ balanceMicros: 1_000 });
    const res = await call(caller, "/v1/pdf/analyze", { source: await pdfSource("photo-placed-small.pdf") });
    expect(res.status).toBe(200);
    const analysis = await res.json<{
      composition: { pages: number };
      images: { effective_dpi: number | null; width: number; placement_count: number; placements: { page: number; rect_pt: Record<"x" | "y" | "width" | "height", number> }[] }[];
      projection: Record<string, { estimated_bytes?: number }>;
      billing: { charged_micros: number };
    }>();
    expect(analysis.composition.pages).toBeGreaterThanOrEqual(1);
    expect(analysis.images.length).toBeGreaterThanOrEqual(1);
    expect(analysis.images[0]!.effective_dpi).toBeGreaterThan(72);
    // The fixture draws its photo 288 x 192 pt from (72, 400) up on a 792 pt page; the box counts from the top.
    const [placement] = analysis.images[0]!.placements;
    expect(analysis.images[0]!.placement_count).toBe(1);
    expect(placement?.page).toBe(1);
    for (const [side, value] of Object.entries({ x: 72, y: 200, width: 288, height: 192 })) expect(Math.abs(placement!.rect_pt[side as "x"] - value)).toBeLessThanOrEqual(0.5);
    expect(Object.keys(analysis.projection).sort()).toEqual(["ebook", "email", "prepress", "print", "screen"]);
    expect(analysis.billing.charged_micros).toBe(0);
    expect(await balanceOf(caller.accountId)).toBe(1_000);
    const usage = await (await api("/v1/account", { key: caller })).json<{ usage: { by_operation: { operation: string; count: number }[] } }>();
    expect(usage.usage.by_operation).toEqual([{ operation: "pdf.analyze", count: 1, micros: 0 }]);
  });

  it("takes mode sync like every processing call, names image fields as the contract does, and reports the input's size", async () => {
    const caller = await seedCaller();
    const source = await pdfSource("photo-placed-small.pdf");
    const res = await call(caller, "/v1/pdf/analyze", { source, mode: "sync" });
    expect(res.status).toBe(200);
    const analysis = await res.json<{
      stats: { original_bytes: number };
      composition: { total_bytes: number };
      images: { colorspace: { family: string }; estimated_jpeg_quality: unknown; estimated_jpeg_encoder: unknown; filters: string[] }[];
    }>();
    expect(analysis.stats.original_bytes).toBe(atob(source.base64).length);
    expect(analysis.stats.original_bytes).toBe(analysis.composition.total_bytes);
    const jpeg = analysis.images.find((image) => image.filters[0] === "DCTDecode")!;
    expect(jpeg.colorspace.family).toBe("DeviceRGB");
    expect(typeof jpeg.estimated_jpeg_quality).toBe("number");
    expect(jpeg.estimated_jpeg_quality).toBeGreaterThanOrEqual(1);
    expect(["ijg", "mozjpeg"]).toContain(jpeg.estimated_jpeg_encoder);
    expect(Object.keys(jpeg)).not.toContain("colour_space");
  });

  it("refuses mode async with a 400 that says analysis offers no job", async () => {
    const caller = await seedCaller();
    const problem = await problemOf(await call(caller, "/v1/pdf/analyze", { source: await pdfSource("photo-placed-small.pdf"), mode: "async" }));
    expect(problem.status).toBe(400);
    expect(problem.errors?.map(({ pointer }) => pointer)).toEqual(["/mode"]);
    expect(problem.errors?.[0]?.detail).toMatch(/synchronously only; mode "async" is not offered/);
  });

  it("refuses a PNG with a 415 that says what it is", async () => {
    const caller = await seedCaller();
    const png = await generatedBytes("rgb.png");
    const problem = await problemOf(await call(caller, "/v1/pdf/analyze", { source: { base64: encodeBase64(png) } }));
    expect(problem.status).toBe(415);
    expect(problem.detail).toMatch(/PNG/);
  });
});

describe("POST /v1/pdf/compress", () => {
  it("shrinks a photo PDF, stores a PDF result, and charges the 25 MB tier", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const res = await call(caller, "/v1/pdf/compress", { source: await pdfSource("photo-full-page.pdf"), options: { profile: "ebook" } });
    expect(res.status).toBe(200);
    const result = await res.json<{ url: string; returned_original: boolean; stats: { original_bytes: number; output_bytes: number; images_rewritten: number }; billing: { charged_micros: number } }>();
    expect(result.returned_original).toBe(false);
    expect(result.stats.output_bytes).toBeLessThan(result.stats.original_bytes);
    expect(result.stats.images_rewritten).toBeGreaterThanOrEqual(1);
    expect(result.billing.charged_micros).toBe(20_000);
    const download = await api(new URL(result.url).pathname + new URL(result.url).search);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.length).toBe(result.stats.output_bytes);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    expect(await balanceOf(caller.accountId)).toBe(80_000);
  });

  it("refuses a signed PDF with 422 pdf_signed at $0", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const problem = await problemOf(await call(caller, "/v1/pdf/compress", { source: await pdfSource("signed.pdf") }));
    expect(problem.status).toBe(422);
    expect(problem.type).toMatch(/pdf_signed$/);
    expect(await balanceOf(caller.accountId)).toBe(100_000);
  });

  it("asks for the password of an encrypted PDF", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const problem = await problemOf(await call(caller, "/v1/pdf/compress", { source: await pdfSource("encrypted.pdf") }));
    expect(problem.status).toBe(422);
    expect(problem.type).toMatch(/pdf_password_required$/);
  });

  it("answers 402 before work when the balance cannot cover the tier", async () => {
    const caller = await seedCaller({ balanceMicros: 19_999 });
    expect((await problemOf(await call(caller, "/v1/pdf/compress", { source: await pdfSource("vector-only.pdf") }))).status).toBe(402);
  });
});
