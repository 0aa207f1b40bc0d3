import { createMiddleware } from "hono/factory";
import { ORIGIN_SECRET_HEADER } from "../../workers/contracts/origin-protocol.ts";
import { ProblemError } from "../../workers/contracts/problems.ts";
import { constantTimeEqual } from "../../workers/crypto/constant-time.ts";

/** Only the edge, which holds the shared secret, may call compute routes. */
export function sharedSecret(secret: string) {
  return createMiddleware(async (c, next) => {
    const presented = c.req.header(ORIGIN_SECRET_HEADER) ?? "";
    if (!constantTimeEqual(presented, secret)) throw new ProblemError("unauthorized", "Missing or wrong origin secret.");
    await next();
  });
}
