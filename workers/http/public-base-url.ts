// The scheme and host of every absolute link the edge hands out (signed download URLs, the upload
// endpoint in development, the reference page's server). Never the request's Host header: a
// forged `Host: evil.example` would otherwise sign links to a host the caller controls. A request
// that arrived on a configured alias host gets links on that alias, since it serves them too.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { aliasFamily } from "../middleware/alias-host.ts";

type BaseUrlEnv = Pick<Bindings, "PUBLIC_BASE_URL" | "IMAGE_ALIAS_HOSTS" | "PDF_ALIAS_HOSTS">;

/** `PUBLIC_BASE_URL`'s origin, or the alias host the request came in on; no trailing slash. */
export function publicBaseUrl(env: BaseUrlEnv, requestUrl: string): string {
  let base: URL;
  try {
    base = new URL(env.PUBLIC_BASE_URL);
  } catch {
    throw new ProblemError("internal_error", "PUBLIC_BASE_URL is not set to an absolute URL, so no link can be made.");
  }
  const host = new URL(requestUrl).hostname.toLowerCase();
  if (aliasFamily(env, host) === null) return base.origin;
  return `${base.protocol}//${host}${base.port ? `:${base.port}` : ""}`;
}
