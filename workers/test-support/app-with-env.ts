import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { createApp } from "../app.ts";
import type { Bindings } from "../env.ts";
import { checkedFetch } from "./api.ts";

/** The real app under a changed configuration (a lower rate limit, alias hosts). */
export async function fetchWithEnv(overrides: Partial<Bindings>, request: Request, app = createApp()): Promise<Response> {
  return checkedFetch(request, async (checked) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(checked, { ...env, ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  });
}
