import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { processingOperations } from "../operations/operation-list.ts";
import { registerDocsRoutes } from "./docs.ts";
import * as healthz from "./healthz.ts";
import * as accountGet from "./v1_account_get.ts";
import * as accountUpdate from "./v1_account_update.ts";
import * as accountWebhook from "./v1_account_webhook.ts";
import * as filesAck from "./v1_files_ack.ts";
import * as filesContent from "./v1_files_content.ts";
import * as filesCreate from "./v1_files_create.ts";
import * as filesGet from "./v1_files_get.ts";
import * as filesList from "./v1_files_list.ts";
import * as filesPlaceholder from "./v1_files_placeholder.ts";
import * as filesUpdate from "./v1_files_update.ts";
import * as imageSign from "./v1_image_sign.ts";
import { registerTransformRoutes } from "./v1_image_transform.ts";
import * as jobsCancel from "./v1_jobs_cancel.ts";
import * as originsCreate from "./v1_origins_create.ts";
import * as originsDelete from "./v1_origins_delete.ts";
import * as originsList from "./v1_origins_list.ts";
import * as presetsCreate from "./v1_presets_create.ts";
import * as presetsDelete from "./v1_presets_delete.ts";
import * as presetsList from "./v1_presets_list.ts";
import * as purge from "./v1_purge.ts";
import * as jobsGet from "./v1_jobs_get.ts";
import * as keysCreate from "./v1_keys_create.ts";
import * as keysList from "./v1_keys_list.ts";
import * as keysRevoke from "./v1_keys_revoke.ts";
import * as keysSigningSecret from "./v1_keys_signing_secret.ts";
import * as uploadsComplete from "./v1_uploads_complete.ts";
import * as uploadsCreate from "./v1_uploads_create.ts";
import * as usageGet from "./v1_usage_get.ts";
import { registerProcessingRoute } from "./processing-route.ts";

const UNAUTHENTICATED_PREFIXES = ["/v1/image/t/"];
const SIGNED_DOWNLOAD_PATH = /^\/v1\/files\/[^/]+\/content$/;

/**
 * Paths under /v1 that are addressed without an API key: the URL-transform path carries a key_id,
 * a signed download (/v1/files/{file_id}/content) its signature.
 */
export function isUnauthenticatedPath(path: string): boolean {
  return UNAUTHENTICATED_PREFIXES.some((prefix) => path.startsWith(prefix)) || SIGNED_DOWNLOAD_PATH.test(path);
}

export function registerRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(healthz.route, healthz.handler);
  registerDocsRoutes(app);
  app.openapi(keysList.route, keysList.handler);
  app.openapi(keysCreate.route, keysCreate.handler);
  app.openapi(keysRevoke.route, keysRevoke.handler);
  app.openapi(keysSigningSecret.route, keysSigningSecret.handler);
  app.openapi(accountGet.route, accountGet.handler);
  app.openapi(accountUpdate.route, accountUpdate.handler);
  app.openapi(usageGet.route, usageGet.handler);
  app.openapi(accountWebhook.putRoute, accountWebhook.putHandler);
  app.openapi(accountWebhook.deleteRoute, accountWebhook.deleteHandler);
  app.openapi(filesCreate.route, filesCreate.handler);
  app.openapi(filesList.route, filesList.handler);
  app.openapi(filesGet.route, filesGet.handler);
  app.openapi(filesUpdate.route, filesUpdate.handler);
  app.openapi(filesContent.route, filesContent.handler);
  app.openapi(filesAck.route, filesAck.handler);
  app.openapi(filesPlaceholder.route, filesPlaceholder.handler);
  app.openapi(uploadsCreate.route, uploadsCreate.handler);
  app.openapi(uploadsComplete.route, uploadsComplete.handler);
  app.openapi(jobsGet.route, jobsGet.handler);
  app.openapi(jobsCancel.route, jobsCancel.handler);
  app.openapi(imageSign.route, imageSign.handler);
  registerTransformRoutes(app);
  app.openapi(originsCreate.route, originsCreate.handler);
  app.openapi(originsList.route, originsList.handler);
  app.openapi(originsDelete.route, originsDelete.handler);
  app.openapi(presetsCreate.route, presetsCreate.handler);
  app.openapi(presetsList.route, presetsList.handler);
  app.openapi(presetsDelete.route, presetsDelete.handler);
  app.openapi(purge.route, purge.handler);
  for (const operation of processingOperations) registerProcessingRoute(app, operation);
}
