import { z } from "@hono/zod-openapi";
import { SYNC_SOURCE_MAX_BYTES } from "./limits/inline-source.ts";
import { parseWebhookSecret, WEBHOOK_SECRET_PREFIX } from "./webhooks/signature.ts";

// The parts every processing request shares: where the input comes from, whether to wait for the
// result, and who to tell when an async job ends.

export { SYNC_SOURCE_MAX_BYTES };

export const sourceSchema = z
  .union([
    z.object({ url: z.string().min(1).max(2048).openapi({ example: "https://images.example.com/photo.jpg" }) }).strict(),
    z
      .object({
        base64: z.string().min(1).openapi({
          description: `Standard or URL-safe base64, optionally a data: URI. Decoded size up to ${SYNC_SOURCE_MAX_BYTES} bytes; larger files go through POST /v1/uploads.`,
          example: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
        }),
      })
      .strict(),
    z.object({ file_id: z.string().max(64).openapi({ example: "file_8Hq2Lm4Zt0Rb7Xc1Vd9Y" }) }).strict(),
  ])
  .openapi("Source", {
    description: "Exactly one of `{url}` (fetched with an SSRF guard), `{base64}` or `{file_id}` (an upload or result of the same account).",
  });

export type Source = z.infer<typeof sourceSchema>;

export const modeSchema = z.enum(["sync", "async"]).default("sync").openapi({
  description: "`async` answers 202 with a job id at once; the result is then at the job's status URL and in the webhook.",
});

/** For an operation that offers no job: `sync` is accepted, so one envelope fits every call. */
export function syncOnlyModeSchema(operation: string) {
  return z
    .literal("sync", { error: `${operation} answers synchronously only; mode "async" is not offered` })
    .default("sync")
    .openapi({ description: `Only \`sync\`: ${operation} answers at once and offers no job.` });
}

// The signer's own parser decides, so a secret accepted here can always sign a delivery.
function signableSecret(secret: string, ctx: z.RefinementCtx): void {
  try {
    parseWebhookSecret(secret);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    ctx.addIssue({ code: "custom", message: error.message });
  }
}

export const webhookTargetSchema = z
  .object({
    url: z.string().url().max(2048).openapi({ example: "https://hooks.example.com/pixelpress" }),
    secret: z
      .string()
      .max(200)
      .startsWith(WEBHOOK_SECRET_PREFIX, "a Standard Webhooks secret: whsec_ followed by base64")
      .superRefine(signableSecret)
      .optional()
      .openapi({ description: "Signs the deliveries. Omit it and one is generated and returned once in the 202 answer." }),
  })
  .strict()
  .openapi("WebhookTarget");

export const outputModeSchema = z.enum(["url", "base64", "both"]).default("url").openapi({
  example: "url",
  description: "How the result is returned: a signed download `url`, inline `base64`, or both.",
});

export type OutputMode = z.output<typeof outputModeSchema>;

export const billingSchema = z
  .object({ charged_micros: z.number().int().openapi({ example: 800 }) })
  .openapi("Billing", { description: "What this call cost, in integer micro-dollars." });

export const jobAcceptedSchema = z
  .object({
    job_id: z.string().openapi({ example: "job_Q2n7bT0kRz4Lw9Xc1Vd8" }),
    status: z.literal("queued"),
    status_url: z.string().openapi({ example: "/v1/jobs/job_Q2n7bT0kRz4Lw9Xc1Vd8" }),
    webhook_secret: z.string().optional().openapi({ description: "Generated when the request named a webhook without a secret; shown once." }),
  })
  .openapi("JobAccepted");
