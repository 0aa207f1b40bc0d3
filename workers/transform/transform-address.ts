// The parts of a transform URL: `/v1/image/t/{key_id}/{transform}/{file_id}` or
// `/v1/image/t/{key_id}/{transform}/{origin}/{path...}`. A source segment that starts with
// `file_` is a file id, any other an origin name. The path under an origin is read from the URL
// as written, never decoded, since it is appended to the origin's base URL as it is and a decoded
// `%2F` would be a separator the check never saw.
import { z } from "@hono/zod-openapi";
import { validationProblem } from "../../contracts/problems/validation-problem.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { FILE_ID_PREFIX, MAX_ORIGIN_PATH_LENGTH, ORIGIN_NAME_PATTERN, originPathProblem } from "../../contracts/transform/origin-path.ts";
import { MAX_TRANSFORM_LENGTH } from "../../contracts/transform/token-values.ts";
import type { TransformTarget } from "./transform-request.ts";

const keyId = z.string().max(64).openapi({ example: "key_3kT9bQ7xLw3mZr9X", description: "The public id of an active API key." });
const transform = z
  .string()
  .max(MAX_TRANSFORM_LENGTH)
  .openapi({ example: "w_400,h_300,fit_cover,f_auto", description: "Comma-separated tokens; see the description." });

export const fileTransformParams = z.object({ key_id: keyId, transform, file_id: z.string().max(64).openapi({ example: "file_8kT2bQ7xLw3mZr9Xc1Vd" }) });

export const originTransformParams = z.object({
  key_id: keyId,
  transform,
  origin: z.string().regex(ORIGIN_NAME_PATTERN).openapi({ example: "shop", description: "A registered origin's name (POST /v1/origins)." }),
  path: z
    .string()
    .max(MAX_ORIGIN_PATH_LENGTH)
    .openapi({
      example: "products/2026/hero.jpg",
      description:
        "The path under the origin's base URL. It may hold `/`: this one parameter is every segment after the origin name (OpenAPI has no multi-segment parameter, so tools that expand it must not encode its slashes). Dot segments, backslashes and encoded slashes, backslashes or dots are refused (400 `origin_path_invalid`); a query string is not forwarded.",
    }),
});

export interface TransformAddress {
  keyId: string;
  transform: string;
  target: TransformTarget;
}

const PREFIX = "/v1/image/t/";

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path of an absolute URL as received: not decoded, not normalized, without the query. */
function rawPath(url: string): string {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  const queryStart = url.indexOf("?", pathStart);
  return url.slice(pathStart, queryStart === -1 ? undefined : queryStart);
}

/** The URL's path when it is under the transform route's prefix; null otherwise. */
export function transformUrlPath(url: string): string | null {
  const path = rawPath(url);
  return path.startsWith(PREFIX) ? path : null;
}

/** Splits the request URL (as received) into key, transform and source, checking each part. */
export function parseTransformAddress(url: string): TransformAddress {
  const raw = rawPath(url).slice(PREFIX.length);
  const first = raw.indexOf("/");
  const second = raw.indexOf("/", first + 1);
  const third = raw.indexOf("/", second + 1);
  const keyIdPart = decoded(raw.slice(0, first));
  const transformPart = decoded(raw.slice(first + 1, second));
  const sourcePart = raw.slice(second + 1, third === -1 ? undefined : third);
  if (third === -1 || sourcePart.startsWith(FILE_ID_PREFIX)) {
    const parsed = fileTransformParams.safeParse({ key_id: keyIdPart, transform: transformPart, file_id: decoded(third === -1 ? sourcePart : raw.slice(second + 1)) });
    if (!parsed.success) throw validationProblem(parsed.error.issues, "param");
    if (third !== -1) throw new ProblemError("not_found", `A file id names the whole source; nothing may follow ${sourcePart}.`);
    return { keyId: parsed.data.key_id, transform: parsed.data.transform, target: { kind: "file", fileId: parsed.data.file_id } };
  }
  const path = raw.slice(third);
  const parsed = originTransformParams.safeParse({ key_id: keyIdPart, transform: transformPart, origin: sourcePart, path: path.slice(1) });
  if (!parsed.success) throw validationProblem(parsed.error.issues, "param");
  const problem = originPathProblem(path);
  if (problem !== null) throw new ProblemError("origin_path_invalid", `${problem}.`, { extensions: { path } });
  return { keyId: parsed.data.key_id, transform: parsed.data.transform, target: { kind: "origin", name: parsed.data.origin, path } };
}
