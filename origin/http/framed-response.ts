import type { z } from "@hono/zod-openapi";
import { CONTENT_DIGEST_HEADER, FRAMED_CONTENT_TYPE, frameDigest, frameHead, type OriginEndpoint } from "../../contracts/origin/framing.ts";

/**
 * A success answer to the edge: the meta JSON framed in front of the output bytes, streamed
 * as they are (one buffer, or the pieces a writer produced) so a large output is not copied into
 * a second buffer behind its head. The
 * meta goes through the endpoint's reply schema first, so the origin sends exactly what the
 * contract declares (a field it does not declare is dropped; a wrong one is our bug, a 500 here
 * rather than a puzzle at the edge).
 */
export function framedResponse<E extends OriginEndpoint>(endpoint: E, meta: z.input<E["reply"]>, bytes: Uint8Array | readonly Uint8Array[]): Response {
  const head = frameHead(endpoint.reply.parse(meta));
  const parts = [head, ...(bytes instanceof Uint8Array ? [bytes] : bytes)].filter((part) => part.length > 0);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": FRAMED_CONTENT_TYPE,
      "Content-Length": String(parts.reduce((sum, part) => sum + part.length, 0)),
      [CONTENT_DIGEST_HEADER]: frameDigest(parts),
    },
  });
}
