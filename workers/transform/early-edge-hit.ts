// A transform URL whose derivative this data centre's cache holds is the edge's most frequent
// request (every <img> view), so it is answered before the app's dispatch: no router, context or
// middleware chain, only what the route itself would do on a hit (alias-host check, key and
// signature, negotiation, one cache match) through the route's own functions, and the request id
// every reply carries. Anything else, a miss or any problem included, goes to the app unchanged,
// which then answers it exactly as if this had not looked: one rule for every reply, in the route.
import type { Bindings } from "../env.ts";
import { newId } from "../crypto/ids.ts";
import { aliasHostRefusal } from "../middleware/alias-host.ts";
import { REQUEST_ID_HEADER } from "../middleware/request-id.ts";
import { edgeCacheHit, readTransformRequest } from "./read-transform-request.ts";
import type { TransformRequest } from "./transform-request.ts";
import { transformUrlPath } from "./transform-address.ts";

/** The reply to a transform GET that hits the edge cache; null for every other request. */
export async function earlyEdgeHit(request: Request, env: Bindings): Promise<Response | null> {
  // HEAD too is served by the route, through the app, which drops the body.
  if (request.method !== "GET") return null;
  const path = transformUrlPath(request.url);
  if (path === null || aliasHostRefusal(env, request.url, path) !== null) return null;
  let transform: TransformRequest;
  try {
    transform = await readTransformRequest(env, request);
  } catch {
    // The app reads the request again and answers with this problem, under its own request id.
    return null;
  }
  const hit = await edgeCacheHit(transform);
  hit?.headers.set(REQUEST_ID_HEADER, newId("req"));
  return hit;
}
