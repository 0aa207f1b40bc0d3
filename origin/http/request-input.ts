import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import { decodeOptionsHeader, ORIGIN_OPTIONS_HEADER } from "../../workers/contracts/origin-protocol.ts";
import { ProblemError } from "../../workers/contracts/problems.ts";
import { validationProblem } from "../../workers/http/validation-problem.ts";

/** The input bytes of a compute call, refused past `maxBytes` before it is all read. */
export async function inputBytes(c: Context, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > maxBytes) throw new ProblemError("payload_too_large", `Input exceeds ${maxBytes} bytes.`);
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.length > maxBytes) throw new ProblemError("payload_too_large", `Input exceeds ${maxBytes} bytes.`);
  if (bytes.length === 0) throw new ProblemError("unprocessable", "The input is empty.");
  return bytes;
}

/** Options validated by the same schema the edge published, so both sides agree on defaults. */
export function inputOptions<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  let raw: unknown;
  try {
    raw = decodeOptionsHeader(c.req.header(ORIGIN_OPTIONS_HEADER));
  } catch {
    throw new ProblemError("validation_failed", `${ORIGIN_OPTIONS_HEADER} is not base64 JSON.`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationProblem(parsed.error.issues, "json");
  return parsed.data;
}
