import { ORIGIN_SECRET_HEADER } from "../contracts/origin-protocol.ts";
import { ProblemError } from "../contracts/problems.ts";
import type { Bindings } from "../env.ts";

type OriginEnv = Pick<Bindings, "ORIGIN_URL" | "ORIGIN_SECRET">;

/**
 * The one place the edge reaches the origin. Where the origin runs (a local process, Cloudflare
 * Containers, any container platform) is the ORIGIN_URL setting, not code.
 */
export async function originFetch(env: OriginEnv, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(ORIGIN_SECRET_HEADER, env.ORIGIN_SECRET);
  try {
    return await fetch(new URL(path, env.ORIGIN_URL), { ...init, headers });
  } catch (error) {
    throw new ProblemError("origin_unavailable", `The processing service did not answer (${String(error)}).`);
  }
}

export async function originHealthy(env: OriginEnv, timeoutMs: number): Promise<boolean> {
  try {
    const res = await originFetch(env, "/healthz", { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
