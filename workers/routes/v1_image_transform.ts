import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { transformChargeKey } from "../billing/charge-key.ts";
import { chargeOnce, requireBalance } from "../billing/charge-once.ts";
import { problemCatalogue, ProblemError, type ProblemType } from "../../contracts/problems/catalogue.ts";
import { IMAGE_SOURCE_MAX_BYTES } from "../../contracts/image-options.ts";
import { transformPrice } from "../../contracts/pricing.ts";
import { readObject } from "../files/file-objects.ts";
import { findReadyFile } from "../files/file-store.ts";
import type { AppEnv } from "../hono-env.ts";
import { rateLimit } from "../middleware/rate-limit.ts";
import { authenticateTransformKey, serveEdgeCacheHit, type TransformRequest } from "../middleware/transform-access.ts";
import { problemSchema } from "../openapi/problem-schema.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { computeDerivative } from "../transform/compute-derivative.ts";
import { derivativeResponse, matchesIfNoneMatch, strongEtag, type DerivativeMeta } from "../transform/derivative-response.ts";
import { dropIfFileDeleted } from "../files/file-lifecycle.ts";
import { countDerivatives, findDerivative, MAX_DERIVATIVES_PER_FILE, storeDerivative } from "../transform/derivative-store.ts";
import { putEdgeCache } from "../transform/edge-cache.ts";
import { contentTypes, outputChoice } from "../../contracts/transform/output-format.ts";
import { storedOriginal } from "../transform/stored-original.ts";
import { MAX_TRANSFORM_LENGTH, tokenDescriptions } from "../../contracts/transform/tokens.ts";
import { ANIMATION_LIMITS } from "../../contracts/limits/animation.ts";

// No API key: the key_id names the account, and an optional signature guards the URL.
function problem(slugs: ProblemType[]) {
  return {
    description: slugs.map((slug) => `\`${slug}\`: ${problemCatalogue[slug].description}`).join(" "),
    content: { "application/problem+json": { schema: problemSchema } },
  };
}

const image = { schema: z.string().openapi({ type: "string", format: "binary" }) };
const tokenTable = Object.entries(tokenDescriptions)
  .map(([prefix, text]) => `- \`${prefix}_\`: ${text}`)
  .join("\n");

const transformParams = z.object({
  key_id: z.string().max(64).openapi({ example: "key_3kT9bQ7xLw3mZr9X", description: "The public id of an active API key." }),
  transform: z.string().max(MAX_TRANSFORM_LENGTH).openapi({ example: "w_400,h_300,fit_cover,f_auto", description: "Comma-separated tokens; see the description." }),
  file_id: z.string().max(64).openapi({ example: "file_8kT2bQ7xLw3mZr9Xc1Vd" }),
});

export const route = createRoute({
  method: "get",
  path: "/v1/image/t/{key_id}/{transform}/{file_id}",
  tags: ["Images"],
  summary: "A transformed image, for <img src>",
  description: `No API key: \`key_id\` (public) names an active key and the file must belong to its account. Tokens, comma-separated in any order:\n${tokenTable}\n\nServed from the edge cache, then from the derivative kept in R2, then computed: at the edge with WASM codecs for outputs up to 0.5 MP from sources up to 1 MP and 4 MB (for a larger original, a downscaled copy the origin makes once), otherwise at the origin from the original. An animated GIF or WebP is always made at the origin and stays animated (as WebP) unless \`f_\` names a still format or \`anim_false\` asks for its first frame; \`f_auto\` never drops the animation. \`q_auto\` is made at the origin, which encodes a few candidate qualities and scores them with SSIMULACRA 2. Animations are limited to ${ANIMATION_LIMITS.max_frames} frames and ${ANIMATION_LIMITS.max_total_pixels / 1_000_000} MP across all frames (413 \`image_too_large\`). \`X-Cache: HIT|MISS\` and \`X-Cache-Tier: edge|r2|compute\` say which. Responses are immutable for a year with a strong ETag (\`If-None-Match\` gives 304); \`f_auto\` sends \`Vary: Accept\`; \`q_auto\` above low sends \`Vary: Save-Data\`, and \`Save-Data: on\` serves the next lower level's derivative (\`q_auto\` with it is \`q_auto:eco\`). Billed $0.0008 the first time a derivative (account, file, canonical transform with q_auto's level after Save-Data, format class) is computed, never again. A derivative has one edge-cache entry per data centre whatever hostname serves it (the API host, an image alias host, a custom domain). Deleting a file (or its expiry) deletes its derivatives, its mezzanine, and their cached copies in the data centre that runs the deletion, under every hostname; copies cached in other data centres are still served until their cache evicts them, because cache hits never consult the database. Limits: originals up to ${IMAGE_SOURCE_MAX_BYTES / 1024 / 1024} MB, ${MAX_DERIVATIVES_PER_FILE} distinct derivatives per file, the key's per-minute rate limit on everything that misses the edge cache.`,
  security: [],
  middleware: [authenticateTransformKey(transformParams), serveEdgeCacheHit, rateLimit] as const,
  request: { params: transformParams },
  responses: {
    200: { description: "The derivative", content: { "image/jpeg": image, "image/webp": image, "image/avif": image, "image/png": image } },
    304: { description: "Not modified: If-None-Match matched the ETag." },
    400: problem(["transform_invalid"]),
    402: problem(["insufficient_balance"]),
    403: problem(["transform_signature_invalid"]),
    404: problem(["not_found"]),
    409: problem(["upload_incomplete"]),
    410: problem(["gone"]),
    413: problem(["image_too_large"]),
    415: problem(["unsupported_media_type"]),
    422: problem(["derivative_limit", "image_unreadable"]),
    429: problem(["rate_limited"]),
    500: problem(["internal_error"]),
    502: problem(["origin_invalid_reply"]),
    503: problem(["origin_unavailable"]),
  },
});

// Past the chain (key, signature, edge cache, the key's rate limit) every request costs D1 and R2 reads.
export const handler: RouteHandler<typeof route, AppEnv> = async (c) => beyondEdgeCache(c, c.get("transform"));

async function beyondEdgeCache(c: Context<AppEnv>, request: TransformRequest): Promise<Response> {
  const { identity } = request;
  const file = await findReadyFile(c.env.DB, identity.accountId, identity.fileId);
  if (file.size_bytes > IMAGE_SOURCE_MAX_BYTES) {
    throw new ProblemError("image_too_large", `File ${identity.fileId} has ${file.size_bytes} bytes; an image source may have at most ${IMAGE_SOURCE_MAX_BYTES}.`, {
      extensions: { limit_bytes: IMAGE_SOURCE_MAX_BYTES },
    });
  }
  const stored = await findDerivative(c.env.DB, identity);
  const object = stored ? await c.env.FILES.get(stored.r2_key) : null;
  if (stored && object) {
    const meta: DerivativeMeta = { etag: stored.etag, contentType: stored.content_type, bytes: object.size, vary: request.vary };
    const body = await cacheDerivative(c, request, meta, object.body, stored.r2_key, file.expires_at);
    return derivativeResponse(body, meta, "r2", request.ifNoneMatch);
  }

  if (!stored && (await countDerivatives(c.env.DB, identity.accountId, identity.fileId)) >= MAX_DERIVATIVES_PER_FILE) {
    throw new ProblemError("derivative_limit", `File ${identity.fileId} already has ${MAX_DERIVATIVES_PER_FILE} distinct transforms.`, {
      extensions: { limit: MAX_DERIVATIVES_PER_FILE },
    });
  }
  const price = transformPrice();
  await requireBalance(c.env.DB, identity.accountId, price);
  const choice = outputChoice(request.spec.format, identity.formatClass === "" ? undefined : (identity.formatClass as "avif" | "webp" | "legacy"));
  const derivative = await computeDerivative(c.env, storedOriginal(c.env.FILES, file), resolveTransform(request.spec), choice);

  const meta: DerivativeMeta = { etag: strongEtag(derivative.sha256), contentType: contentTypes[derivative.format], bytes: derivative.size, vary: request.vary };
  // The ledger's unique charge key bills a derivative once ever: after an eviction from both the
  // edge cache and R2 it is computed again but not charged again.
  const charge = () =>
    chargeOnce(c.env.DB, { accountId: identity.accountId, chargeKey: transformChargeKey(identity), operation: "image.transform", amountMicros: price });
  const r2Key = await storeDerivative(
    c.env,
    identity,
    { body: derivative.body, size: derivative.size, sha256: derivative.sha256, contentType: meta.contentType, etag: meta.etag },
    charge,
  );
  // The origin's stream went into R2: the cache reads it back from there.
  const forCache = derivative.body instanceof Uint8Array ? derivative.body : (await readObject(c.env.FILES, r2Key, identity.fileId)).body;
  const body = await cacheDerivative(c, request, meta, forCache, r2Key, file.expires_at);
  // Checked after the row and the cache entry exist, so a deletion that ran while this was
  // computed is caught here, and one that runs later finds them. The response still goes out,
  // as though this request had finished first.
  await dropIfFileDeleted(c.env, identity.accountId, identity.fileId);
  const response = derivativeResponse(body, meta, "compute", request.ifNoneMatch);
  response.headers.set("X-Transform-Engine", derivative.engine);
  response.headers.set("X-Transform-Source", derivative.source);
  return response;
}

/**
 * Puts a derivative in the edge cache and returns the response body. Bytes the edge made are in
 * memory and serve both; anything larger is never held in the isolate, whatever its size: R2
 * streams it to the cache, and again to the client (not at all for a 304).
 */
async function cacheDerivative(
  c: Context<AppEnv>,
  request: TransformRequest,
  meta: DerivativeMeta,
  body: Uint8Array | ReadableStream<Uint8Array>,
  r2Key: string,
  fileExpiresAt: number | null,
): Promise<BodyInit | null> {
  // Awaited rather than left to waitUntil: a local put costs well under a millisecond, and the
  // next request for the same image (the browser's second <img>) then finds it.
  await putEdgeCache(request.cacheKey, body, meta, fileExpiresAt);
  if (body instanceof Uint8Array) return body;
  if (matchesIfNoneMatch(request.ifNoneMatch, meta.etag)) return null;
  return (await readObject(c.env.FILES, r2Key, request.identity.fileId)).body;
}
