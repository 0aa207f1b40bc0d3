import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { createApp } from "../app.ts";
import type { Bindings } from "../env.ts";
import { checkedFetch } from "./api.ts";

/**
 * The real app under a changed configuration (a lower rate limit, alias hosts). A test may hand
 * in an app with routes of its own planted; replies from paths the document does not list are
 * then not held to it.
 */
export async function fetchWithEnv(overrides: Partial<Bindings>, request: Request, app?: ReturnType<typeof createApp>): Promise<Response> {
  const served = app ?? createApp();
  const send = async (checked: Request) => {
    const ctx = createExecutionContext();
    const res = await served.fetch(checked, { ...env, ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
  return checkedFetch(request, send, { plantedRoutes: app !== undefined });
}
