import { z } from "@hono/zod-openapi";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { jobOperations, type JobOperation } from "../../contracts/operations.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import { operationModules, type OperationModules } from "../operations/operation-list.ts";
import type { DeliveryRecord, JobRecord } from "./job-store.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const webhookDeliverySchema = z.object({
  attempt: z.number().int(),
  outcome: z.enum(["delivered", "failed", "disabled"]),
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  attempted_at: z.string(),
  next_attempt_at: z.string().nullable(),
});

const progressDetailSchema = z
  .object({
    done: z.number().int().min(0),
    total: z.number().int().min(1),
    unit: z.enum(["images", "stages"]),
  })
  .openapi("JobProgress", {
    description:
      "`image.batch` counts images ended (succeeded or failed) of the batch's images. `image.optimize`, `pdf.compress` and `xlsx.generate` count stages of 2: the stored input read, then the origin's processing with its output stored; the origin answers that stage once, with the whole result, so pages or images done inside it are not reported. Null while queued.",
  });

const jobId = z.string().openapi({ example: "job_Q2n7bT0kRz4Lw9Xc1Vd8" });

const jobFields = {
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  progress: z.number().int().min(0).max(100).nullable().openapi({
    description: "Percent of `progress_detail`'s units done, rounded down: null while queued, 100 once succeeded.",
  }),
  progress_detail: progressDetailSchema.nullable(),
  attempts: z.number().int(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  status_url: z.string().openapi({ example: "/v1/jobs/job_Q2n7bT0kRz4Lw9Xc1Vd8" }),
  error: problemSchema.optional(),
  webhook: z.object({ url: z.string(), deliveries: z.array(webhookDeliverySchema) }).optional(),
};

/** One operation's job: its result, once succeeded, is the body its synchronous route answers. */
function jobOf<Operation extends JobOperation, Result extends z.ZodType>(operation: Operation, result: Result) {
  return z.object({
    job_id: jobId,
    operation: z.literal(operation),
    ...jobFields,
    result: result.optional().openapi({ description: `On success: the body \`POST /v1/${operation.replace(".", "/")}\` answers` }),
  });
}

/** Each job operation's succeeded result, as its operation declares it: the job view serves it, the books (scripts/soak/reconcile.ts) read it. */
export const jobResultSchemas = Object.fromEntries(jobOperations.map((operation) => [operation, operationModules[operation].resultSchema])) as {
  [Operation in JobOperation]: OperationModules[Operation]["resultSchema"];
};

function jobMember<Operation extends JobOperation>(operation: Operation) {
  return jobOf(operation, jobResultSchemas[operation]).openapi(operationModules[operation].job.viewName);
}

type JobMember = ReturnType<typeof jobMember<JobOperation>>;

/** Discriminated by `operation`, so a client knows the result's shape from the job itself. */
export const jobSchema = z.discriminatedUnion("operation", jobOperations.map(jobMember) as [JobMember, ...JobMember[]]).openapi("Job");

export type JobView = z.infer<typeof jobSchema>;
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

/**
 * A succeeded job's stored result, parsed with its operation's result schema. A result stored by an
 * earlier version that no longer parses is a clear problem naming the job, never an anonymous 500.
 */
function storedResult(job: JobRecord): unknown {
  const parsed = jobResultSchemas[job.operation].safeParse(job.result);
  if (parsed.success) return parsed.data;
  console.error(`job ${job.id} (${job.operation}): stored result does not parse`, parsed.error.issues);
  throw new ProblemError(
    "job_result_unreadable",
    `Job ${job.id} (${job.operation}) succeeded, but its stored result no longer matches this version's ${job.operation} result; it is kept as stored.`,
    { extensions: { job_id: job.id, operation: job.operation } },
  );
}

/** Parsed, not trusted: a stored result is served only in the shape the public schema declares. */
export function jobView(job: JobRecord, deliveries?: WebhookDeliveryView[]): JobView {
  return jobSchema.parse({
    job_id: job.id,
    operation: job.operation,
    status: job.status,
    progress: job.progress_total ? Math.floor(((job.progress_done ?? 0) * 100) / job.progress_total) : null,
    progress_detail: job.progress_total
      ? { done: job.progress_done ?? 0, total: job.progress_total, unit: operationModules[job.operation].job.progressUnit }
      : null,
    attempts: job.attempts,
    created_at: iso(job.created_at)!,
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
    status_url: `/v1/jobs/${job.id}`,
    ...(job.error ? { error: job.error } : {}),
    ...(job.status === "succeeded" ? { result: storedResult(job) } : {}),
    ...(job.webhook_url && deliveries ? { webhook: { url: job.webhook_url, deliveries } } : {}),
  });
}

export function deliveryView(row: DeliveryRecord): WebhookDeliveryView {
  return { ...row, attempted_at: iso(row.attempted_at)!, next_attempt_at: iso(row.next_attempt_at) };
}
