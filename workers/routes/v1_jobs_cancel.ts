import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { AppEnv } from "../hono-env.ts";
import { cancelJob } from "../jobs/job-store.ts";
import { jobSchema, jobView } from "../jobs/job-view.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { announceJobEnd } from "../webhooks/deliver-webhook.ts";
import { jobIdParams } from "./v1_jobs_get.ts";

export const route = createRoute({
  method: "post",
  path: "/v1/jobs/{job_id}/cancel",
  tags: ["Jobs"],
  summary: "Cancel a queued job",
  description: "Only a `queued` job can be cancelled; it then never runs and is never charged. A running or finished job is a 409 naming its state.",
  security: bearerSecurity,
  middleware: [requireScope("jobs")] as const,
  request: { params: jobIdParams, headers: idempotencyHeaders },
  responses: { 200: jsonContent(jobSchema, "The cancelled job"), ...problemResponses("not_found", "conflict") },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const outcome = await cancelJob(c.env, c.get("caller").accountId, c.req.valid("param").job_id);
  if (!outcome.cancelled) {
    throw new ProblemError("conflict", `The job is ${outcome.job.status}; only a queued job can be cancelled.`, {
      extensions: { job_status: outcome.job.status },
    });
  }
  await announceJobEnd(c.env, outcome.job);
  return c.json(jobView(outcome.job), 200);
};
