import { pdfCompressEndpoint } from "../../contracts/origin/pdf-compress.ts";
import { framedResponse } from "../http/framed-response.ts";
import type { OriginRoute } from "./origin-route.ts";
import { pdfCall } from "./pdf-call.ts";

/** A PDF in, the compressed PDF and its stats out (framed: meta first), from the PDF pool. */
export const route: OriginRoute = {
  path: pdfCompressEndpoint.path,
  async handle(c, { pdfPool, clocks }) {
    const { input, options, ticket } = await pdfCall(c, pdfCompressEndpoint, clocks);
    const { bytes, ...meta } = await pdfPool.compress(input, options, ticket);
    return framedResponse(pdfCompressEndpoint, meta, bytes);
  },
};
