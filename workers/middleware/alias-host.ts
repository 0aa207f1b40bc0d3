import { createMiddleware } from "hono/factory";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { AppEnv } from "../hono-env.ts";

const FAMILY_PREFIXES = { image: "/v1/image/", pdf: "/v1/pdf/", xlsx: "/v1/xlsx/" } as const;
type Family = keyof typeof FAMILY_PREFIXES;

function hostList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
}

/** On an image or PDF alias hostname, only that product family is served; the others are 404. */
export const aliasHost = createMiddleware<AppEnv>(async (c, next) => {
  const host = new URL(c.req.url).hostname.toLowerCase();
  const family: Family | null = hostList(c.env.IMAGE_ALIAS_HOSTS).includes(host)
    ? "image"
    : hostList(c.env.PDF_ALIAS_HOSTS).includes(host)
      ? "pdf"
      : null;
  if (family) {
    const other = (Object.keys(FAMILY_PREFIXES) as Family[]).find(
      (f) => f !== family && c.req.path.startsWith(FAMILY_PREFIXES[f]),
    );
    if (other) throw new ProblemError("not_found", `${host} serves only /v1/${family}/ endpoints.`);
  }
  await next();
});
