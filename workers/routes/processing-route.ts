// The one route every processing operation is served by (docs/recipes.md, "Adding a processing
// operation"): the operation module declares what differs, this keeps the order every
// processing request goes through: the webhook URL checked, the body planned or its source
// resolved, the balance required, then a job (its inputs stored first) or the work now.
import { publicBaseUrl } from "../http/public-base-url.ts";
import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import { jobAcceptedSchema, type Source } from "../../contracts/envelope.ts";
import { isJobOperation, operationDeclarations, type ProcessingOperation } from "../../contracts/operations.ts";
import { requestChargeKey } from "../billing/charge-key.ts";
import { requireBalance } from "../billing/charge-once.ts";
import type { Bindings } from "../env.ts";
import type { AppEnv, Caller } from "../hono-env.ts";
import { submitJob } from "../jobs/submit-job.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { idempotencyHeaders } from "../openapi/idempotency-header.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import type { ErasedOperation, OperationCommon, ProcessingBody, SourceInput, SourceOperation } from "../operations/operation.ts";
import { resolveSource } from "../sources/resolve-source.ts";
import { checkWebhookUrl } from "../webhooks/webhook-url.ts";

export function processingRoute<Body extends ProcessingBody, Input, ResultSchema extends z.ZodType, JobRequestSchema extends z.ZodType>(
  operation: OperationCommon<ProcessingOperation, Body, Input, ResultSchema, JobRequestSchema>,
) {
  const { http } = operation;
  return createRoute({
    method: "post",
    path: http.path,
    tags: http.tags,
    summary: http.summary,
    description: http.description,
    security: bearerSecurity,
    middleware: [requireScope(operationDeclarations[operation.name].scope)] as const,
    request: { headers: idempotencyHeaders, body: { required: true, content: { "application/json": { schema: operation.requestSchema } } } },
    responses: {
      200: jsonContent(operation.resultSchema, http.resultDescription),
      ...(operation.job ? { 202: jsonContent(jobAcceptedSchema, "Accepted as an async job") } : {}),
      ...problemResponses(...http.problems),
    },
  });
}

/** The body with its one source resolved; the balance is read before the source is fetched unless the price depends on it. */
async function acceptSource<Body extends ProcessingBody & { source: Source }>(
  env: Bindings,
  caller: Caller,
  operation: SourceOperation<ProcessingOperation, Body, z.ZodType, z.ZodType>,
  body: Body,
): Promise<SourceInput<Body>> {
  const ceiling = operation.balanceCeiling;
  if ("fromBody" in ceiling) await requireBalance(env, caller.accountId, ceiling.fromBody(body));
  const input = { body, source: await resolveSource(env, caller.accountId, body.source, operation.expect, operation.maxBytes) };
  if ("fromSource" in ceiling) await requireBalance(env, caller.accountId, ceiling.fromSource(input));
  return input;
}

/** How an operation's input is taken: its own plan, or its body and source; a mistake in either is a 4xx before any work. */
type AcceptInput<Body, Input> = (env: Bindings, caller: Caller, body: Body) => Promise<Input>;

/** One operation's route under its own types: the body the route validates is the one its input is taken from. */
function registerOperationRoute<Body extends ProcessingBody, Input, ResultSchema extends z.ZodType, JobRequestSchema extends z.ZodType>(
  app: OpenAPIHono<AppEnv>,
  operation: OperationCommon<ProcessingOperation, Body, Input, ResultSchema, JobRequestSchema>,
  acceptInput: AcceptInput<Body, Input>,
): void {
  app.openapi(processingRoute(operation), async (c) => {
    const caller = c.get("caller");
    const body: Body = c.req.valid("json");
    if (body.webhook) checkWebhookUrl(c.env, body.webhook.url, "/webhook/url");
    const input = await acceptInput(c.env, caller, body);
    const accepted = { accountId: caller.accountId, input, baseUrl: publicBaseUrl(c.env, c.req.url) };
    const job = operation.job;
    if (job && isJobOperation(operation.name) && (body.mode === "async" || job.forcedBy?.(input))) {
      const request = await job.request(c.env, accepted);
      return c.json(await submitJob(c.env, caller, { operation: operation.name, request, webhook: body.webhook }), 202);
    }
    const requestId = c.get("requestId");
    return c.json(await operation.runSync(c.env, { ...accepted, chargeKey: requestChargeKey(requestId), requestId }), 200);
  });
}

/** Registers the operation's route with its own body, input and result types, opened from the list's erased form. */
export function registerProcessingRoute(app: OpenAPIHono<AppEnv>, operation: ErasedOperation): void {
  operation.serve({
    source: (declared) => registerOperationRoute(app, declared, (env, caller, body) => acceptSource(env, caller, declared, body)),
    planned: (declared) =>
      registerOperationRoute(app, declared, async (env, caller, body) => {
        const plan = declared.plan(body, caller);
        await requireBalance(env, caller.accountId, declared.balanceCeiling(plan));
        return plan;
      }),
  });
}
