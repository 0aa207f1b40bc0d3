import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { Scalar } from "@scalar/hono-api-reference";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { isProblemSlug, PROBLEMS_PATH, problemIndexPage, problemPage } from "../docs/problem-pages.ts";
import { SCALAR_BUNDLE_PATH } from "../docs/scalar-bundle.ts";
import type { AppEnv } from "../hono-env.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import { publicBaseUrl } from "../http/public-base-url.ts";
import { renderedPageSecurityHeaders } from "../http/page-security-headers.ts";

const htmlContent = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });

export const docsRoute = createRoute({
  method: "get",
  path: "/docs",
  tags: ["Platform"],
  summary: "Interactive API reference",
  description:
    "This reference, rendered from `/openapi.json` by Scalar. Paste a key under Authentication (`ak_live_...`, sent as a bearer token) to try any call against the server it is served from. No authentication.",
  security: [],
  responses: { 200: htmlContent("The reference page") },
});

export const problemIndexRoute = createRoute({
  method: "get",
  path: PROBLEMS_PATH,
  tags: ["Platform"],
  summary: "Every problem type, explained",
  description: "The problem catalogue as a page: one section per `type`, with its status, title and what to do about it. No authentication.",
  security: [],
  responses: { 200: htmlContent("The catalogue page") },
});

export const problemRoute = createRoute({
  method: "get",
  path: `${PROBLEMS_PATH}/{slug}`,
  tags: ["Platform"],
  summary: "One problem type, explained",
  description: "Where a problem's `type` URI leads: its status, title and what to do about it. No authentication.",
  security: [],
  request: { params: z.object({ slug: z.string().max(64).openapi({ example: "validation_failed" }) }) },
  responses: {
    200: htmlContent("The problem type's page"),
    404: { description: "`not_found`: no problem type with this slug.", content: { "application/problem+json": { schema: problemSchema } } },
  },
});

/** Sets the page's security headers and returns the nonce its inline script and style may carry. */
function securePage(c: Context<AppEnv>): string {
  const nonce = crypto.randomUUID();
  for (const [name, value] of Object.entries(renderedPageSecurityHeaders(nonce))) c.header(name, value);
  return nonce;
}

const reference = Scalar<AppEnv>((c) => ({
  url: "/openapi.json",
  nonce: securePage(c),
  pageTitle: "PixelPress API reference",
  cdn: SCALAR_BUNDLE_PATH,
  // Try-it requests go to the public base URL (or the alias host that served this page), never to a forged Host.
  servers: [{ url: publicBaseUrl(c.env, c.req.url), description: "This server" }],
  authentication: { preferredSecurityScheme: "bearerAuth" },
  defaultOpenAllTags: true,
  hideClientButton: true,
  showDeveloperTools: "never",
  // Self-contained: no third-party fonts, telemetry, hosted AI agent or MCP generator.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
}));

export function registerDocsRoutes(app: OpenAPIHono<AppEnv>): void {
  // Scalar's middleware always answers with the page; it never falls through to `next`.
  app.openapi(docsRoute, (c, next) => reference(c, next) as Promise<Response>);
  app.openapi(problemIndexRoute, (c) => {
    securePage(c);
    return c.html(problemIndexPage());
  });
  app.openapi(problemRoute, (c) => {
    securePage(c);
    const { slug } = c.req.valid("param");
    if (!isProblemSlug(slug)) throw new ProblemError("not_found", `No problem type named ${slug}; see ${PROBLEMS_PATH}.`);
    return c.html(problemPage(slug));
  });
}
