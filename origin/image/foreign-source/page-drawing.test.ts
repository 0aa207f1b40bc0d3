import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { encodeOptionsHeader, ORIGIN_ACCOUNT_HEADER, ORIGIN_OPTIONS_HEADER } from "../../../contracts/origin/framing.ts";
import { originHealthSchema } from "../../../contracts/origin/health.ts";
import { originTransformSchema } from "../../../contracts/origin/image-transform.ts";
import { PDF_PAGE_DRAWING_BUDGET } from "../../../contracts/limits/drawing.ts";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { createOriginApp } from "../../app.ts";
import { blendedFillsPdf, loopedPageTreePdf } from "../../pdf/test-support/generate-pdf.ts";
import { transformImage } from "../transform-image.ts";
import { pageDrawingLoad } from "./page.ts";

const pageOf = (input: Uint8Array, page: number, width?: number) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "png", page, ...(width ? { width } : {}) }));

async function problemOf(work: Promise<unknown>): Promise<ProblemError> {
  const refused = await work.catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ProblemError);
  return refused as ProblemError;
}

// 20 blended fills over a 14,400-point page: at the default 150 dpi (capped at 100 megapixels)
// MuPDF needs minutes. Drawn 1,800 pixels wide it stays under the budget and still takes seconds.
const HEAVY_PAGE_WIDTH = 1_800;

async function post(app: ReturnType<typeof createOriginApp>, account: string, body: Uint8Array, options: unknown): Promise<Response> {
  return await app.request("/image/process", {
    method: "POST",
    body: new Uint8Array(body),
    headers: { [ORIGIN_OPTIONS_HEADER]: encodeOptionsHeader(options), [ORIGIN_ACCOUNT_HEADER]: account },
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("drawing a PDF page", () => {
  it("answers a page the page tree's loop hides as pdf_unreadable (422), as analyze does, not a 500", async () => {
    const problem = await problemOf(pageOf(loopedPageTreePdf(), 2));
    expect([problem.slug, problem.status]).toEqual(["pdf_unreadable", 422]);
    expect(problem.message).toContain("cycle");
  });

  it("refuses a page whose blended fills cost more than the budget as drawing_too_complex, before drawing it", async () => {
    const hostile = blendedFillsPdf(20);
    expect(hostile.byteLength).toBeLessThan(2_000);
    const problem = await problemOf(pageOf(hostile, 1));
    expect([problem.slug, problem.status]).toEqual(["drawing_too_complex", 422]);
    expect(problem.extensions.limit).toBe(PDF_PAGE_DRAWING_BUDGET);
    expect(problem.extensions.estimated_cost).toBeGreaterThan(10 * PDF_PAGE_DRAWING_BUDGET);
  });

  it("draws a costly page within the budget off the main thread: another account is answered meanwhile and the event loop never stalls", async () => {
    const app = createOriginApp({ secret: null });
    const small = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a6" } }).jpeg().toBuffer();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let heavyAnswered = false;
    const heavy = post(app, "heavy", blendedFillsPdf(20), { page: 1, width: HEAVY_PAGE_WIDTH, format: "png" }).then((res) => {
      heavyAnswered = true;
      return res;
    });
    await until(() => pageDrawingLoad().busy > 0);
    const asked = Date.now();
    const other = await post(app, "other", small, { format: "webp" });
    const answeredInMs = Date.now() - asked;
    expect(other.status).toBe(200);
    expect(heavyAnswered).toBe(false);
    const heavyStatus = (await heavy).status;
    delay.disable();
    // Stopped at its deadline, the thread is terminated by the pool's own timer a moment after the answer.
    await until(() => pageDrawingLoad().busy === 0);
    // Drawn, or stopped at its deadline on a slow machine: either way in a thread of its own.
    expect([200, 422]).toContain(heavyStatus);
    expect(answeredInMs).toBeLessThan(5_000);
    expect(delay.max / 1e6).toBeLessThan(1_000);
  });

  it("terminates the drawing at the call's deadline and frees its compute slot and thread", async () => {
    const app = createOriginApp({ secret: null, deadlineScale: 0.05 });
    const timedOutBefore = pageDrawingLoad().timedOut;
    const res = await post(app, "heavy", blendedFillsPdf(20), { page: 1, width: HEAVY_PAGE_WIDTH, format: "png" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { type: string }).type).toMatch(/processing_timeout$/);
    const health = originHealthSchema.parse(await (await app.request("/healthz")).json());
    expect(health.pools.compute.busy).toBe(0);
    await until(() => pageDrawingLoad().busy === 0);
    expect(pageDrawingLoad().timedOut).toBe(timedOutBefore + 1);
  });
});
