import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import { decodeOptionsHeader, ORIGIN_OPTIONS_HEADER } from "../../contracts/origin/framing.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { validationProblem } from "../../contracts/problems/validation-problem.ts";

const UNDECLARED_INITIAL_BYTES = 64 * 1024;

function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError("payload_too_large", `Input exceeds ${maxBytes} bytes.`);
}

/**
 * The input bytes of a compute call, refused past `maxBytes` before it is all read. Read into
 * one buffer of the declared length: the adapter's arrayBuffer() keeps every chunk, joins them
 * and copies the result, three transient copies that took a 150 MB upload's origin peak past 1 GB.
 */
export async function inputBytes(c: Context, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const body = c.req.raw.body;
  let buffer = new Uint8Array(declared > 0 ? declared : UNDECLARED_INITIAL_BYTES);
  let length = 0;
  if (body !== null) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.length > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      if (length + value.length > buffer.length) {
        const grown = new Uint8Array(Math.min(maxBytes, Math.max(buffer.length * 2, length + value.length)));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(value, length);
      length += value.length;
    }
  }
  if (length === 0) throw new ProblemError("unprocessable", "The input is empty.");
  return length === buffer.length ? buffer : buffer.slice(0, length);
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
