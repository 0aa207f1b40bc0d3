// What the origin-backed transform tests share: requests through the real app with loopback URLs
// allowed (the generated-files server on loopback stands in for a customer's origin), and an
// origin registered over the API.
import { env } from "cloudflare:test";
import { createApp } from "../app.ts";
import { fetchWithEnv } from "./app-with-env.ts";
import type { TestCaller } from "./api.ts";

const app = createApp();

/** Like api(), with ALLOW_LOOPBACK_URLS on. */
export function loopbackApi(path: string, request: { key?: TestCaller; json?: unknown; method?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const headers = new Headers(request.headers);
  if (request.key) headers.set("Authorization", `Bearer ${request.key.secret}`);
  if (request.json !== undefined) headers.set("Content-Type", "application/json");
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  return fetchWithEnv({ ALLOW_LOOPBACK_URLS: "true" }, new Request(`http://api.test${path}`, { method: request.method ?? (body ? "POST" : "GET"), headers, body }), app);
}

/** Registers the generated-files server as the caller's origin `name`. */
export async function registerGeneratedOrigin(caller: TestCaller, name = "shop"): Promise<void> {
  const res = await loopbackApi("/v1/origins", { key: caller, json: { name, base_url: `${env.TEST_GENERATED_FILES_URL}/` } });
  if (res.status !== 201) throw new Error(`registering ${name}: ${res.status} ${await res.text()}`);
}

export const originTransformUrl = (caller: TestCaller, transform: string, origin: string, path: string) => `/v1/image/t/${caller.keyId}/${transform}/${origin}${path}`;
