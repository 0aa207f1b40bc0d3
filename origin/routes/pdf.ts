import type { Hono } from "hono";
import { pdfAnalyzeOptionsSchema, pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import { PDF_MAX_BYTES } from "../../contracts/pricing.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import { PdfWorkerPool } from "../pdf/pdf-worker-pool.ts";

export const PDF_ANALYZE_PATH = "/pdf/analyze";
export const PDF_COMPRESS_PATH = "/pdf/compress";

/**
 * PDF work runs in recycled worker threads (mupdf's WASM heap only grows); one thread per origin
 * process leaves the other core to sharp, and extra requests queue in the pool.
 */
export function registerPdfRoutes(app: Hono, pool: PdfWorkerPool): void {
  app.post(PDF_ANALYZE_PATH, async (c) => {
    const options = inputOptions(c, pdfAnalyzeOptionsSchema);
    const analysis = await pool.analyze(await inputBytes(c, PDF_MAX_BYTES), options);
    return framedResponse(analysis, new Uint8Array(0));
  });

  app.post(PDF_COMPRESS_PATH, async (c) => {
    const options = inputOptions(c, pdfCompressOptionsSchema);
    const { bytes, ...meta } = await pool.compress(await inputBytes(c, PDF_MAX_BYTES), options);
    return framedResponse(meta, bytes);
  });
}
