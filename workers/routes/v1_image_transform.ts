// The URL-transform routes: a file, or a path under a registered origin. Both are one Hono route
// (the origin's path may hold slashes, which an OpenAPI path parameter cannot) through one chain
// and one handler; the document lists them as two operations.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { createFactory } from "hono/factory";
import { problemCatalogue, type ProblemType } from "../../contracts/problems/catalogue.ts";
import { IMAGE_SOURCE_MAX_BYTES } from "../../contracts/image-options.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import { SYNC_SOURCE_MAX_BYTES } from "../../contracts/envelope.ts";
import type { AppEnv } from "../hono-env.ts";
import { rateLimit } from "../middleware/rate-limit.ts";
import { authenticateTransformKey, limitPresetLifetime, serveEdgeCacheHit } from "../transform/transform-chain.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import { MAX_DERIVATIVES_PER_FILE } from "../../contracts/limits/derivatives.ts";
import { fileTransformParams, originTransformParams } from "../transform/transform-address.ts";
import type { TransformEnv } from "../transform/transform-request.ts";
import { serveTransform } from "../transform/serve-transform.ts";
import { tokenTable } from "../../contracts/transform/token-docs.ts";
import { imageFactsSchema } from "../../contracts/origin/image-facts.ts";
import { ANIMATION_LIMITS } from "../../contracts/limits/animation.ts";
import { MAX_FRESH_SECONDS, MIN_FRESH_SECONDS, MISSING_SECONDS } from "../origins/freshness.ts";

// No API key: the key_id names the account, and an optional signature guards the URL.
function problem(slugs: ProblemType[]) {
  return {
    description: slugs.map((slug) => `\`${slug}\`: ${problemCatalogue[slug].description}`).join(" "),
    content: { "application/problem+json": { schema: problemSchema } },
  };
}

const image = { schema: z.string().openapi({ type: "string", format: "binary" }) };
const video = image;

const tiers = `Served from the edge cache, then from the derivative kept in R2, then computed: at the edge with WASM codecs for outputs up to 0.5 MP from sources up to 1 MP and 4 MB (for a larger original, a downscaled copy the origin makes once), otherwise at the origin from the original. An animated GIF or WebP is always made at the origin and stays animated (as WebP) unless \`f_\` names a still format or \`anim_false\` asks for its first frame; \`f_auto\` never drops the animation. \`q_auto\` is made at the origin, which encodes a few candidate qualities and scores them with SSIMULACRA 2. Animations kept animated are limited to ${ANIMATION_LIMITS.max_frames} frames and ${ANIMATION_LIMITS.max_total_pixels / 1_000_000} MP across all frames (413 \`image_too_large\`); \`anim_false\` or a still \`f_\` takes the first frame of a longer one. \`X-Cache: HIT|MISS\` and \`X-Cache-Tier: edge|r2|compute\` say which. A strong ETag (\`If-None-Match\` gives 304); \`f_auto\` sends \`Vary: Accept\`; \`q_auto\` above low sends \`Vary: Save-Data, ECT\`, and \`Save-Data: on\` or a slow \`ECT\` serves the next lower level's derivative (\`q_auto\` with it is \`q_auto:eco\`); \`w_auto\` and \`dpr_auto\` serve the rung their client hints snap up to (\`w_auto\` at 640 is \`w_640\`'s derivative), and \`Vary\`, \`Accept-CH\` and \`Critical-CH\` name exactly the hints the URL's tokens read. A derivative has one edge-cache entry per data centre whatever hostname serves it (the API host, an image alias host, a custom domain). Rate limits: the key's per-minute limit on everything that misses the edge cache.`;

const responses = {
  200: {
    description: "The derivative: the image, with `f_mp4` or `f_webm` the video, or with `f_json` the source's facts",
    content: { "image/jpeg": image, "image/webp": image, "image/avif": image, "image/png": image, "video/mp4": video, "video/webm": video, "application/json": { schema: imageFactsSchema } },
  },
  304: { description: "Not modified: If-None-Match matched the ETag." },
  400: problem(["transform_invalid", "origin_path_invalid", "validation_failed"]),
  402: problem(["insufficient_balance"]),
  403: problem(["transform_signature_invalid"]),
  404: problem(["not_found"]),
  409: problem(["upload_incomplete"]),
  410: problem(["gone"]),
  413: problem(["image_too_large"]),
  415: problem(["unsupported_media_type"]),
  422: problem(["crop_out_of_bounds", "derivative_limit", "drawing_too_complex", "image_unreadable", "overlay_unavailable", "page_out_of_range", "pdf_unreadable", "source_forbidden_address", "unprocessable"]),
  429: problem(["rate_limited"]),
  500: problem(["internal_error"]),
  501: problem(["encoder_unavailable"]),
  502: problem(["origin_invalid_reply", "upstream_unavailable"]),
  503: problem(["origin_unavailable"]),
  504: problem(["upstream_timeout"]),
} as const;

export const fileRoute = createRoute({
  method: "get",
  path: "/v1/image/t/{key_id}/{transform}/{file_id}",
  tags: ["Images"],
  summary: "A transformed image of a file, for <img src>",
  description: `No API key: \`key_id\` (public) names an active key and the file must belong to its account. Tokens, comma-separated in any order:\n${tokenTable}\n\n${tiers} Responses are immutable for a year, except a \`t_\` URL's, cached for at most 30 s since its preset may change. Billed $0.0008 the first time a derivative (account, file, canonical transform with q_auto's level after Save-Data and ECT and w_auto's rung, format class) is computed, never again. Deleting a file (or its expiry) deletes its derivatives (and those drawn with it as an \`l_\` overlay), its mezzanine, and their cached copies in the data centre that runs the deletion, under every hostname; copies cached in other data centres are still served until their cache evicts them (or, for an expiring file, until it expires), because cache hits never consult the database, unless the service has a Cloudflare zone token: deleting a file then purges them everywhere. Limits: originals up to ${IMAGE_SOURCE_MAX_BYTES / 1024 / 1024} MB (a PDF, whose pages \`pg_\` draws, up to ${PDF_MAX_BYTES / 1024 / 1024} MB, the PDF endpoints' limit), ${MAX_DERIVATIVES_PER_FILE} distinct derivatives per file.`,
  security: [],
  request: { params: fileTransformParams },
  responses,
});

export const originRoute = createRoute({
  method: "get",
  path: "/v1/image/t/{key_id}/{transform}/{origin}/{path}",
  tags: ["Images"],
  summary: "A transformed image from a registered origin, for <img src>",
  description: `No API key: \`key_id\` (public) names an active key, and \`origin\` one of its account's origins (POST /v1/origins); \`path\` (which may hold \`/\`) is appended to the origin's base URL. Query strings are not forwarded. The same tokens as the file route. ${tiers}\n\nThe original is fetched once (through the same SSRF guard as a URL source, at most ${SYNC_SOURCE_MAX_BYTES / 1024 / 1024} MB and 30 s) and kept with its ETag and Last-Modified; it stays fresh for what the origin's Cache-Control or Expires grants, clamped to ${MIN_FRESH_SECONDS} s .. ${MAX_FRESH_SECONDS / 86400} days (24 hours when it says nothing). Replies carry \`Cache-Control: public, max-age=<remaining freshness>\` and an ETag tied to the original's version. A stale original is revalidated (If-None-Match, If-Modified-Since): a 304 keeps every derivative; changed bytes are a new version whose derivatives are computed and billed anew. The origin's 404 or 410 is a 404, remembered for ${MISSING_SECONDS} s. When the origin fails (5xx, reset, timeout) a kept copy is served with \`X-Cache: STALE\`; without one the answer is 502 or 504 with \`Retry-After\`. Not an image: 415; too large: 413; none of these is charged. Billed $0.0008 once per account, origin path, original version, canonical transform and format class. Limits: ${MAX_DERIVATIVES_PER_FILE} distinct derivatives per version of an original.`,
  security: [],
  request: { params: originTransformParams },
  responses,
});

// The chain parses the URL itself (transform-address.ts), so the handler reads no validated params.
const factory = createFactory<TransformEnv>();
const chain = factory.createHandlers(authenticateTransformKey, limitPresetLifetime, serveEdgeCacheHit, rateLimit, (c) => serveTransform(c.env, c.get("transform")));

export function registerTransformRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerPath(fileRoute);
  app.openAPIRegistry.registerPath(originRoute);
  // The route's own environment adds `transform` to the app's; Hono types a route by its app.
  (app as unknown as OpenAPIHono<TransformEnv>).get("/v1/image/t/:key_id/:transform/:source{.+}", ...chain);
}
