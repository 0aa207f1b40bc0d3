// The one catalogue of RFC 9457 problem types. Edge and origin both throw
// ProblemError with a slug from here, so a `type` URI never drifts between them.

import { entryBody, PROBLEM_TYPE_BASE, type FieldError, type ProblemBody, type ProblemEntry } from "./problem-body.ts";
import { transformInvalidEntry } from "./transform-invalid.ts";

export { PROBLEM_TYPE_BASE, problemTypeUri, type FieldError, type ProblemBody } from "./problem-body.ts";

export const problemCatalogue = {
  validation_failed: {
    status: 400,
    title: "Request validation failed",
    description: "One or more fields are invalid; `errors` lists each one with a JSON pointer.",
  },
  invalid_json: {
    status: 400,
    title: "Malformed JSON body",
    description: "The request body is not valid JSON.",
  },
  unauthorized: {
    status: 401,
    title: "Missing or invalid API key",
    description: "Send `Authorization: Bearer ak_live_...` with an active key.",
  },
  insufficient_balance: {
    status: 402,
    title: "Insufficient balance",
    description: "The account balance does not cover this operation; nothing was charged.",
  },
  forbidden_scope: {
    status: 403,
    title: "API key lacks the required scope",
    description: "The key is valid but its scopes do not include this operation.",
  },
  not_found: {
    status: 404,
    title: "Not found",
    description: "No such route or resource for this account.",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    description: "The route exists but does not accept this HTTP method.",
  },
  idempotency_conflict: {
    status: 409,
    title: "Request with this Idempotency-Key is still in progress",
    description: "Retry after the first request has finished.",
  },
  conflict: {
    status: 409,
    title: "Conflict with the resource's current state",
    description: "The operation is not allowed in the resource's current state.",
  },
  gone: {
    status: 410,
    title: "Gone",
    description: "The resource expired or was deleted.",
  },
  payload_too_large: {
    status: 413,
    title: "Payload too large",
    description: "The request body or source exceeds the documented limit.",
  },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported media type",
    description: "The request body or source is not of a type this endpoint accepts.",
  },
  idempotency_key_reused: {
    status: 422,
    title: "Idempotency-Key reused with a different request",
    description: "An Idempotency-Key identifies one request; a different method, path or body needs a new key.",
  },
  unprocessable: {
    status: 422,
    title: "Request cannot be processed",
    description: "The request is well formed but cannot be carried out as asked.",
  },
  pdf_unreadable: {
    status: 422,
    title: "PDF cannot be read",
    description: "The file is not a PDF, or it is damaged beyond repair (for example its page tree is missing).",
  },
  pdf_password_required: {
    status: 422,
    title: "PDF is encrypted and needs a password",
    description: "Send the document's user or owner password in `options.password`.",
  },
  pdf_password_invalid: {
    status: 422,
    title: "PDF password is wrong",
    description: "`options.password` opens neither as the user nor as the owner password.",
  },
  pdf_signed: {
    status: 422,
    title: "PDF is digitally signed",
    description: "Compressing rewrites the file and invalidates its signatures; set `allow_signature_break: true` to proceed anyway.",
  },
  pdf_conformance: {
    status: 422,
    title: "PDF claims PDF/A or PDF/X conformance",
    description: "Compressing may break the conformance; set `allow_conformance_break: true` to proceed, and the output then no longer claims it.",
  },
  xlsx_limits: {
    status: 422,
    title: "Workbook exceeds Excel's limits",
    description:
      "A sheet name, row or column count, cell reference, cell length, number, date, formula, list or hyperlink count is beyond what Excel can hold; `errors` points at each one. Checked before any work. Not charged.",
  },
  rate_limited: {
    status: 429,
    title: "Too many requests",
    description: "The key exceeded its rate limit (a signed download: its client address or its file did); retry after `Retry-After` seconds.",
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    description: "Something failed on our side; quote the request_id when reporting it. Not charged.",
  },
  job_result_unreadable: {
    status: 500,
    title: "Job result unreadable",
    description:
      "The job succeeded, but its result was stored in a shape this version of the service no longer reads; the stored result is kept unchanged. Quote the job id when reporting it. Not charged again.",
  },
  origin_unavailable: {
    status: 503,
    title: "Processing service unavailable",
    description: "The compute origin could not be reached; retry later. Not charged.",
  },
  origin_invalid_reply: {
    status: 502,
    title: "Processing service answered badly",
    description: "The compute origin answered with a reply that does not match its contract; retry later and quote the request_id if it persists. Not charged.",
  },
  dependency_unavailable: {
    status: 503,
    title: "A dependency is unavailable",
    description: "Storage or the database did not answer; retry later. Not charged.",
  },
  image_unreadable: {
    status: 422,
    title: "Image cannot be decoded",
    description: "The source is a known image format but is corrupt or truncated. Not charged.",
  },
  image_too_large: {
    status: 413,
    title: "Image exceeds the size limits",
    description: "The source is larger than the documented byte limit, has more pixels than the pixel limit, or is an animation with more frames or more pixels across its frames than the animation limits (all checked from the header, before decoding). Not charged.",
  },
  max_bytes_unreachable: {
    status: 422,
    title: "max_bytes cannot be reached",
    description: "Even the lowest quality tried does not fit in `max_bytes`; `smallest_bytes` is the smallest size reached. Lower the dimensions or raise `max_bytes`. Not charged.",
  },
  page_out_of_range: {
    status: 422,
    title: "No such page",
    description: "The page asked for (`pg_<n>` or `options.page`) is past the source's last page; `pages` says how many it has. Not charged.",
  },
  crop_out_of_bounds: {
    status: 422,
    title: "Crop outside the image",
    description:
      "The `crop_` rectangle reaches past the image (its size after the EXIF orientation); `errors` points at the token, `image_width` and `image_height` give the size. Not charged.",
  },
  transform_invalid: transformInvalidEntry,
  overlay_unavailable: {
    status: 422,
    title: "Overlay cannot be used",
    description:
      "The file an `l_` token names cannot be drawn over the image: it is not a file of this account, it was deleted or has expired, its upload is not complete, it is not an image, it is larger than the overlay limit, or the source is a remote-origin path (overlays go on files only); `errors` points at the token. Not charged.",
  },
  text_undrawable: {
    status: 422,
    title: "Text cannot be drawn",
    description:
      "The text of an `l_text:` token holds characters its font has no glyph for (the service's fonts are the only ones it reads); `characters` lists each once as `{codepoint: 'U+6F22', character: '漢'}`, and `errors` points at the token. Not charged.",
  },
  source_invalid_url: {
    status: 400,
    title: "Invalid source URL",
    description: "`source.url` must be an absolute http or https URL without credentials, on port 80, 443 or 1024 and above.",
  },
  source_forbidden_address: {
    status: 422,
    title: "Source address not allowed",
    description: "The URL (or a redirect) points at a loopback, private, link-local, CGNAT, multicast, cloud-metadata or reserved address, or at an internal host name.",
  },
  source_unreachable: {
    status: 422,
    title: "Source could not be fetched",
    description: "The source URL failed: network error, timeout, too many redirects or a non-2xx answer; `reason` says which and `upstream_status` gives the status it answered.",
  },
  source_too_large: {
    status: 413,
    title: "Source too large",
    description: "The source exceeds the byte limit (`max_bytes`); the download stops at the limit. Use POST /v1/uploads for larger files.",
  },
  download_link_invalid: {
    status: 403,
    title: "Download link invalid or expired",
    description: "The signed download URL does not match its file and expiry, or it has expired; GET /v1/files/{file_id} signs a fresh one.",
  },
  range_not_satisfiable: {
    status: 416,
    title: "Range not satisfiable",
    description: "The Range header starts at or beyond the end of the file; `Content-Range: bytes */<size>` gives its size.",
  },
  upload_incomplete: {
    status: 409,
    title: "Upload not completed",
    description: "The file is still pending: PUT its bytes to the presigned URL (exact Content-Length and Content-Type), then POST /v1/uploads/{file_id}/complete.",
  },
  transform_signature_invalid: {
    status: 403,
    title: "Transform URL signature missing or invalid",
    description: "The `s_` token does not match the canonical transform path under the key's signing secret, or the account requires signed transform URLs and none was given. Never cached, never billed.",
  },
  derivative_limit: {
    status: 422,
    title: "Too many derivatives of this file",
    description: "The file already has the maximum number of distinct transforms (`limit`); reuse an existing transform URL or upload the file again. Never billed.",
  },
  processing_timeout: {
    status: 422,
    title: "Processing ran past its deadline",
    description: "The input needs more work than the operation's deadline allows (deadlines grow with the input's size; see the README), so the work was stopped. Send a smaller or simpler input, or `mode: \"async\"` where the endpoint has it. Not charged.",
  },
  origin_path_invalid: {
    status: 400,
    title: "Invalid path under a remote origin",
    description: "The path after the origin name would leave the origin's base URL (a dot segment, an encoded slash, dot or backslash, a backslash) or holds a query string, which is never forwarded. Never fetched, never billed.",
  },
  upstream_unavailable: {
    status: 502,
    title: "The remote origin failed",
    description: "The origin that holds the original answered with an error status, reset the connection or redirected badly, and no earlier copy is kept to serve instead; `upstream_status` gives its status when it sent one. Retry after `Retry-After` seconds. Not charged.",
  },
  upstream_timeout: {
    status: 504,
    title: "The remote origin timed out",
    description: "The origin that holds the original did not answer, or did not finish its body, within the time limit of a URL source, and no earlier copy is kept to serve instead. Retry after `Retry-After` seconds. Not charged.",
  },
  storage_quota_exceeded: {
    status: 413,
    title: "Durable storage quota exceeded",
    description: "Keeping this file durable would take the account past its plan's durable storage quota (`quota_bytes`, of which `used_bytes` are taken). Nothing was stored or charged: delete durable files, give this one an `expires_at`, or move to a larger plan.",
  },
  storage_charge_owed: {
    status: 402,
    title: "Storage charge owed",
    description: "A day of durable storage was not paid because the balance did not cover it (`owed_micros`). Until a top-up settles it (the daily sweep retries), no new durable file is accepted; nothing stored is deleted.",
  },
  drawing_too_complex: {
    status: 422,
    title: "The vector source is too costly to draw",
    description: "Drawing this PDF page or SVG at the asked size would take more work than the limit allows, estimated before drawing from the area it paints and its blending or filters (`estimated_cost`, `limit`). Ask a smaller size, or flatten the page or the filters first. Not charged.",
  },
  encoder_unavailable: {
    status: 501,
    title: "Encoder not installed",
    description: "The output asked for (`f_mp4`, `f_webm`) is encoded by a tool this service's processing origin does not have installed; `tool` names it. Ask for another format. Not charged.",
  },
} as const satisfies Record<string, ProblemEntry>;

export type ProblemType = keyof typeof problemCatalogue;

export class ProblemError extends Error {
  readonly slug: ProblemType;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly extensions: Record<string, unknown>;
  /** Response headers that belong with this problem (Retry-After, Allow). */
  readonly headers: Record<string, string>;

  constructor(
    slug: ProblemType,
    detail?: string,
    more: {
      errors?: FieldError[];
      extensions?: Record<string, unknown>;
      status?: number;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail ?? problemCatalogue[slug].title);
    this.name = "ProblemError";
    this.slug = slug;
    this.status = more.status ?? problemCatalogue[slug].status;
    this.errors = more.errors;
    this.extensions = more.extensions ?? {};
    this.headers = more.headers ?? {};
  }

  toBody(requestId?: string): ProblemBody {
    return problemBody(this.slug, this.message, {
      requestId,
      errors: this.errors,
      extensions: this.extensions,
      status: this.status,
    });
  }
}

export function problemBody(
  slug: ProblemType,
  detail: string,
  more: { requestId?: string; errors?: FieldError[]; extensions?: Record<string, unknown>; status?: number } = {},
): ProblemBody {
  return entryBody(slug, problemCatalogue[slug], detail, more);
}

export function isProblemBody(value: unknown): value is ProblemBody {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.type === "string" && v.type.startsWith(PROBLEM_TYPE_BASE) && typeof v.status === "number";
}

export function slugOfType(type: string): ProblemType | undefined {
  const slug = type.slice(PROBLEM_TYPE_BASE.length);
  return type.startsWith(PROBLEM_TYPE_BASE) && slug in problemCatalogue ? (slug as ProblemType) : undefined;
}
