import { pdfCompressEndpoint } from "../../contracts/origin/pdf-compress.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import type { OriginRoute } from "./origin-route.ts";

/**
 * PDF work runs in recycled worker threads (mupdf's WASM heap only grows); calls wait per account
 * in the pool and a call past its deadline has its worker terminated.
 */
export const route: OriginRoute = {
  path: pdfCompressEndpoint.path,
  async handle(c, { pdfPool, clocks }) {
    const clock = clocks(c, pdfCompressEndpoint.path);
    const options = inputOptions(c, pdfCompressEndpoint.options);
    const input = await inputBytes(c, PDF_MAX_BYTES);
    const { bytes, ...meta } = await pdfPool.compress(input, options, clock.ticket(input.byteLength));
    return framedResponse(pdfCompressEndpoint, meta, bytes);
  },
};
