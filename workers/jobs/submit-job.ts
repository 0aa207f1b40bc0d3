import type { z } from "@hono/zod-openapi";
import type { JobOperation } from "../../contracts/operations.ts";
import type { jobAcceptedSchema, webhookTargetSchema } from "../../contracts/envelope.ts";
import { findAccountWebhook } from "../accounts/account-store.ts";
import { seal } from "../crypto/seal.ts";
import type { Bindings } from "../env.ts";
import type { Caller } from "../hono-env.ts";
import { generateWebhookSecret } from "../../contracts/webhooks/signature.ts";
import { operationModules } from "../operations/operation-list.ts";
import { createJob } from "./job-store.ts";

type JobEnv = Pick<Bindings, "DB" | "JOBS" | "SIGNING_SECRET" | "ACCOUNT_SHARDS">;

/**
 * Records the job with its (already stored) input, parsed here with its operation's job request
 * schema (the one its runner parses again; the caller knows the operation's types only under its
 * name, so the parse is what checks the request), then enqueues only its id. The webhook is the
 * request's own, else the account's; a request that names a URL without a secret gets a fresh one,
 * shown once in the answer.
 */
export async function submitJob(
  env: JobEnv,
  caller: Caller,
  input: { operation: JobOperation; request: unknown; webhook?: z.infer<typeof webhookTargetSchema> },
): Promise<z.infer<typeof jobAcceptedSchema>> {
  let webhookUrl: string | null = null;
  let webhookSecretSealed: string | null = null;
  let generatedSecret: string | undefined;
  if (input.webhook) {
    webhookUrl = input.webhook.url;
    const secret = input.webhook.secret ?? (generatedSecret = generateWebhookSecret());
    webhookSecretSealed = await seal(env.SIGNING_SECRET, secret);
  } else {
    const accountWebhook = await findAccountWebhook(env.DB, caller.accountId);
    if (accountWebhook) {
      webhookUrl = accountWebhook.url;
      webhookSecretSealed = accountWebhook.secretSealed;
    }
  }
  const job = await createJob(env, {
    accountId: caller.accountId,
    keyId: caller.keyId,
    operation: input.operation,
    request: operationModules[input.operation].job.requestSchema.parse(input.request),
    webhookUrl,
    webhookSecretSealed,
  });
  await env.JOBS.send({ kind: "job", job_id: job.id, account_id: caller.accountId });
  return {
    job_id: job.id,
    status: "queued",
    status_url: `/v1/jobs/${job.id}`,
    ...(generatedSecret ? { webhook_secret: generatedSecret } : {}),
  };
}
