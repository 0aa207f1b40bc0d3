import { FRAMED_CONTENT_TYPE, frameHead } from "../../contracts/origin/framing.ts";

/**
 * A success answer to the edge: the meta JSON framed in front of the output bytes, streamed
 * as two chunks so a large output is not copied into a second buffer behind its head.
 */
export function framedResponse(meta: unknown, bytes: Uint8Array): Response {
  const head = frameHead(meta);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
  return new Response(body, {
    headers: { "Content-Type": FRAMED_CONTENT_TYPE, "Content-Length": String(head.length + bytes.length) },
  });
}
