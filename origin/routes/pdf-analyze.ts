import { pdfAnalyzeEndpoint } from "../../contracts/origin/pdf-analyze.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { framedResponse } from "../http/framed-response.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import type { OriginRoute } from "./origin-route.ts";

/** A PDF in, its analysis out as the framed meta (no payload); run in the PDF pool, as compress is. */
export const route: OriginRoute = {
  path: pdfAnalyzeEndpoint.path,
  async handle(c, { pdfPool, clocks }) {
    const clock = clocks(c, pdfAnalyzeEndpoint.path);
    const options = inputOptions(c, pdfAnalyzeEndpoint.options);
    const input = await inputBytes(c, PDF_MAX_BYTES);
    const analysis = await pdfPool.analyze(input, options, clock.ticket(input.byteLength));
    return framedResponse(pdfAnalyzeEndpoint, analysis, new Uint8Array(0));
  },
};
