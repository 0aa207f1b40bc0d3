export { PixelPressError, type Problem } from "./api-error.ts";
export type { components, paths } from "./api-types.ts";
export { createPixelPress, DEFAULT_BASE_URL, type ClientOptions, type PixelPressClient } from "./client.ts";
export { pollJob, type PollOptions } from "./job-polling.ts";
export type { CallOptions, Job, JobAccepted, OperationPath, OperationResult, Products, RequestBody } from "./operation-types.ts";
export { createRetryingFetch, DEFAULT_RETRY_POLICY, newIdempotencyKey, type RetryPolicy } from "./retrying-fetch.ts";
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders, type WebhookToVerify } from "../../contracts/webhooks/signature.ts";
