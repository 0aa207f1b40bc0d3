import type { Hono } from "hono";
import { pdfAnalyzeEndpoint } from "../../contracts/origin/pdf-analyze.ts";
import { pdfCompressEndpoint } from "../../contracts/origin/pdf-compress.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import type { PdfJobRunner } from "../pdf/pdf-worker-pool.ts";

/**
 * PDF work runs in recycled worker threads (mupdf's WASM heap only grows); one thread per origin
 * process leaves the other core to sharp, and extra requests queue in the pool.
 */
export function registerPdfRoutes(app: Hono, pool: PdfJobRunner): void {
  app.post(pdfAnalyzeEndpoint.path, async (c) => {
    const options = inputOptions(c, pdfAnalyzeEndpoint.options);
    const analysis = await pool.analyze(await inputBytes(c, PDF_MAX_BYTES), options);
    return framedResponse(pdfAnalyzeEndpoint, analysis, new Uint8Array(0));
  });

  app.post(pdfCompressEndpoint.path, async (c) => {
    const options = inputOptions(c, pdfCompressEndpoint.options);
    const { bytes, ...meta } = await pool.compress(await inputBytes(c, PDF_MAX_BYTES), options);
    return framedResponse(pdfCompressEndpoint, meta, bytes);
  });
}
