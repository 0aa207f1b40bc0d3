import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { AppEnv } from "../hono-env.ts";

/** Sync requests carry sources inline as base64; anything larger goes through POST /v1/uploads. */
export const MAX_JSON_BODY_BYTES = 40 * 1024 * 1024;

export const jsonBodyLimit = bodyLimit({
  maxSize: MAX_JSON_BODY_BYTES,
  onError: () => {
    throw new ProblemError(
      "payload_too_large",
      `Request bodies are limited to ${MAX_JSON_BODY_BYTES} bytes; upload larger files with POST /v1/uploads.`,
    );
  },
});

/** A request with a body must send it as JSON. */
export const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const hasBody = c.req.raw.body !== null && c.req.header("content-length") !== "0";
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (hasBody && ["POST", "PUT", "PATCH"].includes(c.req.method) && type !== "application/json" && !type.endsWith("+json")) {
    throw new ProblemError("unsupported_media_type", `Send the request body as application/json, not ${type || "no Content-Type"}.`);
  }
  await next();
});
