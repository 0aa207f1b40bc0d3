import { pdfAnalyzeEndpoint } from "../../contracts/origin/pdf-analyze.ts";
import { framedResponse } from "../http/framed-response.ts";
import type { OriginRoute } from "./origin-route.ts";
import { pdfCall } from "./pdf-call.ts";

/** A PDF in, its analysis out as the framed meta (no payload), from the PDF pool. */
export const route: OriginRoute = {
  path: pdfAnalyzeEndpoint.path,
  async handle(c, { pdfPool, clocks }) {
    const { input, options, ticket } = await pdfCall(c, pdfAnalyzeEndpoint, clocks);
    return framedResponse(pdfAnalyzeEndpoint, await pdfPool.analyze(input, options, ticket), new Uint8Array(0));
  },
};
