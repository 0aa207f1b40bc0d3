import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import type { Plan } from "../accounts/account-store.ts";
import { openAccount } from "../billing/open-account.ts";
import type { Scope } from "../auth/scopes.ts";
import { createKey } from "../keys/key-store.ts";
import { responseContractErrors, type OpenApiDocument } from "./response-contract.ts";

const worker = (exports as unknown as { default: { fetch(request: Request): Promise<Response> } }).default;

export interface TestCaller {
  accountId: string;
  keyId: string;
  secret: string;
}

let counter = 0;

/** A fresh account with a funded (or not) key, through the same stores the admin CLI uses. */
export async function seedCaller(
  options: { plan?: Plan; balanceMicros?: number; scopes?: Scope[] } = {},
): Promise<TestCaller> {
  const account = await openAccount(env.DB, {
    name: `test account ${++counter}`,
    plan: options.plan ?? "pro",
    balanceMicros: options.balanceMicros ?? 10_000_000,
  });
  const { record, secret } = await createKey(env.DB, account.id, { name: "test", scopes: options.scopes ?? null });
  return { accountId: account.id, keyId: record.id, secret };
}

export interface ApiRequest {
  method?: string;
  key?: string | TestCaller;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  host?: string;
}

/** A request to the edge worker's real fetch handler, as a client would send it. */
export function api(path: string, request: ApiRequest = {}): Promise<Response> {
  const headers = new Headers(request.headers);
  const key = typeof request.key === "string" ? request.key : request.key?.secret;
  if (key) headers.set("Authorization", `Bearer ${key}`);
  let body = request.body;
  if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const url = `http://${request.host ?? "api.test"}${path}`;
  return checkedFetch(new Request(url, { method: request.method ?? (body ? "POST" : "GET"), headers, body }), (req) => worker.fetch(req));
}

let publishedDocument: Promise<OpenApiDocument> | null = null;

/** The document the worker serves at /openapi.json, fetched once per test file. */
function openApiDocument(): Promise<OpenApiDocument> {
  publishedDocument ??= worker.fetch(new Request("http://api.test/openapi.json")).then((res) => res.json<OpenApiDocument>());
  return publishedDocument;
}

/** Sends a request and fails the test when the reply departs from what /openapi.json declares. */
export async function checkedFetch(
  request: Request,
  send: (request: Request) => Promise<Response>,
  options: { plantedRoutes?: boolean } = {},
): Promise<Response> {
  const { method, url } = request;
  const res = await send(request);
  const errors = await responseContractErrors(await openApiDocument(), { method, url }, res, options);
  if (errors.length > 0) throw new Error(`The reply departs from /openapi.json:\n${errors.join("\n")}`);
  return res;
}

export async function problemOf(res: Response): Promise<{ type: string; status: number; detail: string; errors?: { pointer: string; detail: string }[]; request_id?: string }> {
  if (!res.headers.get("Content-Type")?.startsWith("application/problem+json")) {
    throw new Error(`expected a problem, got ${res.status} ${res.headers.get("Content-Type")}: ${await res.text()}`);
  }
  return res.json();
}
