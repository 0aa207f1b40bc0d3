import { HTTPException } from "hono/http-exception";
import { problemBody, ProblemError, type ProblemBody, type ProblemType } from "./catalogue.ts";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export function problemResponse(body: ProblemBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE, ...headers },
  });
}

// Hono's own request parsing throws HTTPExceptions (malformed JSON is its 400).
const HTTP_EXCEPTION_SLUGS: Record<number, ProblemType> = {
  400: "invalid_json",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/**
 * Turns anything thrown into a problem; internals of unexpected errors never reach the client.
 * Without a request id (a batch item inside a request) the problem carries none.
 */
export function problemFromError(error: unknown, requestId?: string): ProblemBody {
  if (error instanceof ProblemError) return error.toBody(requestId);
  if (error instanceof HTTPException && HTTP_EXCEPTION_SLUGS[error.status]) {
    return problemBody(HTTP_EXCEPTION_SLUGS[error.status]!, error.message, { requestId });
  }
  return problemBody("internal_error", "An unexpected error occurred. Not charged.", { requestId });
}
