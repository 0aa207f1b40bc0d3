import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { findJob } from "../jobs/job-store.ts";
import { deliveryView, jobSchema, jobView } from "../jobs/job-view.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

export const jobIdParams = z.object({
  job_id: z.string().max(64).openapi({ example: "job_Q2n7bT0kRz4Lw9Xc1Vd8" }),
});

export const route = createRoute({
  method: "get",
  path: "/v1/jobs/{job_id}",
  tags: ["Jobs"],
  summary: "An async job's status, result or problem, and its webhook attempts",
  security: bearerSecurity,
  middleware: [requireScope("jobs")] as const,
  request: { params: jobIdParams },
  responses: { 200: jsonContent(jobSchema, "The job"), ...problemResponses("not_found", "job_result_unreadable") },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { job, deliveries } = await findJob(c.env, c.get("caller").accountId, c.req.valid("param").job_id);
  return c.json(jobView(job, deliveries.map(deliveryView)), 200);
};
