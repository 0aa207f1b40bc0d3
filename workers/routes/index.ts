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
import { routeEntry, type RouteEntry } from "./route-entry.ts";

const UNAUTHENTICATED_PREFIXES = ["/v1/image/t/"];
const SIGNED_DOWNLOAD_PATH = /^\/v1\/files\/[^/]+\/content$/;

/**
 * Paths under /v1 that are addressed without an API key: the URL-transform path carries a key_id,
 * a signed download (/v1/files/{file_id}/content) its signature.
 */
export function isUnauthenticatedPath(path: string): boolean {
  return UNAUTHENTICATED_PREFIXES.some((prefix) => path.startsWith(prefix)) || SIGNED_DOWNLOAD_PATH.test(path);
}

/** Every route but the processing operations', in the order the OpenAPI document lists their paths. */
const routeList: RouteEntry[] = [
  routeEntry(healthz),
  { register: registerDocsRoutes },
  routeEntry(keysList),
  routeEntry(keysCreate),
  routeEntry(keysRevoke),
  routeEntry(keysSigningSecret),
  routeEntry(accountGet),
  routeEntry(accountUpdate),
  routeEntry(usageGet),
  routeEntry({ route: accountWebhook.putRoute, handler: accountWebhook.putHandler }),
  routeEntry({ route: accountWebhook.deleteRoute, handler: accountWebhook.deleteHandler }),
  routeEntry(filesCreate),
  routeEntry(filesList),
  routeEntry(filesGet),
  routeEntry(filesUpdate),
  routeEntry(filesContent),
  routeEntry(filesAck),
  routeEntry(filesPlaceholder),
  routeEntry(uploadsCreate),
  routeEntry(uploadsComplete),
  routeEntry(jobsGet),
  routeEntry(jobsCancel),
  routeEntry(imageSign),
  { register: registerTransformRoutes },
  routeEntry(originsCreate),
  routeEntry(originsList),
  routeEntry(originsDelete),
  routeEntry(presetsCreate),
  routeEntry(presetsList),
  routeEntry(presetsDelete),
  routeEntry(purge),
];

export function registerRoutes(app: OpenAPIHono<AppEnv>): void {
  for (const entry of routeList) entry.register(app);
  for (const operation of processingOperations) registerProcessingRoute(app, operation);
}
