import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { createAccount, type Plan } from "../accounts/account-store.ts";
import type { Scope } from "../auth/scopes.ts";
import { createKey } from "../keys/key-store.ts";

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
  const account = await createAccount(env.DB, {
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
  return worker.fetch(new Request(url, { method: request.method ?? (body ? "POST" : "GET"), headers, body }));
}

export async function problemOf(res: Response): Promise<{ type: string; status: number; detail: string; errors?: { pointer: string; detail: string }[]; request_id?: string }> {
  if (!res.headers.get("Content-Type")?.startsWith("application/problem+json")) {
    throw new Error(`expected a problem, got ${res.status} ${res.headers.get("Content-Type")}: ${await res.text()}`);
  }
  return res.json();
}
