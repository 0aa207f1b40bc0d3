import { createMiddleware } from "hono/factory";
import { ORIGIN_SECRET_HEADER } from "../../contracts/origin/framing.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { constantTimeEqual } from "../../contracts/crypto/constant-time.ts";

/** Only the edge, which holds the shared secret, may call compute routes. */
export function sharedSecret(secret: string) {
  return createMiddleware(async (c, next) => {
    const presented = c.req.header(ORIGIN_SECRET_HEADER) ?? "";
    if (!constantTimeEqual(presented, secret)) throw new ProblemError("unauthorized", "Missing or wrong origin secret.");
    await next();
  });
}
