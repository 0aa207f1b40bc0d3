import type { Hono } from "hono";
import { pdfAnalyzeEndpoint } from "../../contracts/origin/pdf-analyze.ts";
import { pdfCompressEndpoint } from "../../contracts/origin/pdf-compress.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import type { PdfJobRunner } from "../pdf/pdf-worker-pool.ts";
import type { CallClocks } from "./call-ticket.ts";

/**
 * PDF work runs in recycled worker threads (mupdf's WASM heap only grows); calls wait per account
 * in the pool and a call past its deadline has its worker terminated.
 */
export function registerPdfRoutes(app: Hono, pool: PdfJobRunner, clocks: CallClocks): void {
  app.post(pdfAnalyzeEndpoint.path, async (c) => {
    const clock = clocks(c, pdfAnalyzeEndpoint.path);
    const options = inputOptions(c, pdfAnalyzeEndpoint.options);
    const input = await inputBytes(c, PDF_MAX_BYTES);
    const analysis = await pool.analyze(input, options, clock.ticket(input.byteLength));
    return framedResponse(pdfAnalyzeEndpoint, analysis, new Uint8Array(0));
  });

  app.post(pdfCompressEndpoint.path, async (c) => {
    const clock = clocks(c, pdfCompressEndpoint.path);
    const options = inputOptions(c, pdfCompressEndpoint.options);
    const input = await inputBytes(c, PDF_MAX_BYTES);
    const { bytes, ...meta } = await pool.compress(input, options, clock.ticket(input.byteLength));
    return framedResponse(pdfCompressEndpoint, meta, bytes);
  });
}
