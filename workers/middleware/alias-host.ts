import { createMiddleware } from "hono/factory";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import type { AppEnv } from "../hono-env.ts";

const FAMILY_PREFIXES = { image: "/v1/image/", pdf: "/v1/pdf/", xlsx: "/v1/xlsx/" } as const;
type Family = keyof typeof FAMILY_PREFIXES;

function hostList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
}

/** The product family a configured alias hostname serves; null for any other host. */
export function aliasFamily(env: Pick<Bindings, "IMAGE_ALIAS_HOSTS" | "PDF_ALIAS_HOSTS">, host: string): Family | null {
  if (hostList(env.IMAGE_ALIAS_HOSTS).includes(host)) return "image";
  if (hostList(env.PDF_ALIAS_HOSTS).includes(host)) return "pdf";
  return null;
}

/**
 * Why a path is not served on the URL's host (an alias host of another product family), or null.
 * `path` is the request's path as routing reads it.
 */
export function aliasHostRefusal(env: Pick<Bindings, "IMAGE_ALIAS_HOSTS" | "PDF_ALIAS_HOSTS">, url: string, path: string): string | null {
  // Most deployments configure no alias host: no URL to parse then.
  if (!env.IMAGE_ALIAS_HOSTS && !env.PDF_ALIAS_HOSTS) return null;
  const host = new URL(url).hostname.toLowerCase();
  const family = aliasFamily(env, host);
  if (!family) return null;
  const other = (Object.keys(FAMILY_PREFIXES) as Family[]).find((f) => f !== family && path.startsWith(FAMILY_PREFIXES[f]));
  return other ? `${host} serves only /v1/${family}/ endpoints.` : null;
}

/** On an image or PDF alias hostname, only that product family is served; the others are 404. */
export const aliasHost = createMiddleware<AppEnv>(async (c, next) => {
  const refusal = aliasHostRefusal(c.env, c.req.url, c.req.path);
  if (refusal !== null) throw new ProblemError("not_found", refusal);
  await next();
});
