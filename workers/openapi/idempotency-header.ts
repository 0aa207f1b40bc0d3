import { z } from "@hono/zod-openapi";
import { IDEMPOTENCY_KEY_MAX_LENGTH } from "../idempotency/idempotency-key.ts";

// No example: /docs's Test Request pre-fills a header from its example, and one fixed key sent with
// every different body is a 422 for the next 24 hours.
export const idempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .optional()
    .openapi({
      description: `Makes a retried POST safe: the first request's response is stored for 24 hours and replayed (with \`Idempotent-Replayed: true\`, never charged again) for a retry with the same key and body. A different body with the same key is a 422; a retry while the first is running is a 409. Up to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, bare or as an RFC 8941 quoted string: a fresh UUID per logical request is a good key.`,
    }),
});
