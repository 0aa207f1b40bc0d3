import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
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

/**
 * A request with a body must send it as JSON. An empty body declared as JSON is no JSON either, and
 * the route's reader says only "Malformed JSON" of it: that answer is replaced by one saying the
 * body is empty and what it needs (only a route that reads a body gets there).
 */
export const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const hasBody = c.req.raw.body !== null && c.req.header("content-length") !== "0";
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const sendsBody = ["POST", "PUT", "PATCH"].includes(c.req.method);
  const json = type === "application/json" || type.endsWith("+json");
  if (hasBody && sendsBody && !json) {
    throw new ProblemError("unsupported_media_type", `Send the request body as application/json, not ${type || "no Content-Type"}.`);
  }
  await next();
  if (!hasBody && sendsBody && c.error instanceof HTTPException && c.error.status === 400) {
    throw new ProblemError(
      "invalid_json",
      `The request body is empty. ${c.req.method} ${c.req.path} takes a JSON object: send its fields (listed at /docs), or \`{}\` where none is required.`,
    );
  }
});
