import { FRAMED_CONTENT_TYPE, frameHead } from "../../workers/contracts/origin-protocol.ts";

/** A success answer to the edge: the meta JSON framed in front of the output bytes. */
export function framedResponse(meta: unknown, bytes: Uint8Array): Response {
  const head = frameHead(meta);
  const body = new Uint8Array(head.length + bytes.length);
  body.set(head);
  body.set(bytes, head.length);
  return new Response(body, {
    headers: { "Content-Type": FRAMED_CONTENT_TYPE, "Content-Length": String(body.length) },
  });
}
