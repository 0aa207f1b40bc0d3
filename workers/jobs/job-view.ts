import { z } from "@hono/zod-openapi";
import { problemSchema } from "../openapi/problem-schema.ts";
import type { JobRecord } from "./job-store.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const webhookDeliverySchema = z.object({
  attempt: z.number().int(),
  outcome: z.enum(["delivered", "failed", "disabled"]),
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  attempted_at: z.string(),
  next_attempt_at: z.string().nullable(),
});

export const jobSchema = z
  .object({
    job_id: z.string().openapi({ example: "job_Q2n7bT0kRz4Lw9Xc1Vd8" }),
    operation: z.enum(["image.optimize", "image.batch", "pdf.compress", "xlsx.generate"]),
    status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
    progress: z.number().int().nullable().openapi({ description: "0 to 100 where known" }),
    attempts: z.number().int(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    status_url: z.string().openapi({ example: "/v1/jobs/job_Q2n7bT0kRz4Lw9Xc1Vd8" }),
    result: z.unknown().optional().openapi({ description: "On success: the same body the synchronous call returns" }),
    error: problemSchema.optional(),
    webhook: z
      .object({ url: z.string(), deliveries: z.array(webhookDeliverySchema) })
      .optional(),
  })
  .openapi("Job");

export type JobView = z.infer<typeof jobSchema>;
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

export function jobView(job: JobRecord, deliveries?: WebhookDeliveryView[]): JobView {
  return {
    job_id: job.id,
    operation: job.operation,
    status: job.status,
    progress: job.progress,
    attempts: job.attempts,
    created_at: iso(job.created_at)!,
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
    status_url: `/v1/jobs/${job.id}`,
    ...(job.status === "succeeded" ? { result: job.result } : {}),
    ...(job.error ? { error: job.error } : {}),
    ...(job.webhook_url && deliveries ? { webhook: { url: job.webhook_url, deliveries } } : {}),
  };
}

export function deliveryView(row: {
  attempt: number;
  outcome: "delivered" | "failed" | "disabled";
  response_status: number | null;
  error: string | null;
  attempted_at: number;
  next_attempt_at: number | null;
}): WebhookDeliveryView {
  return { ...row, attempted_at: iso(row.attempted_at)!, next_attempt_at: iso(row.next_attempt_at) };
}
