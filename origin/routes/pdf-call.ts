// What both PDF routes read before their work: the options, the document (at most PDF_MAX_BYTES)
// and the call's ticket. PDF work runs in recycled worker threads (mupdf's WASM heap only grows);
// calls wait per account in the pool and a call past its deadline has its worker terminated.
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import type { DeadlinePath } from "../../contracts/limits/deadlines.ts";
import { PDF_MAX_BYTES } from "../../contracts/limits/pdf.ts";
import type { JobTicket } from "../worker-pool/job-ticket.ts";
import { inputBytes, inputOptions } from "../http/request-input.ts";
import type { CallClocks } from "./call-ticket.ts";

export async function pdfCall<S extends z.ZodType>(
  c: Context,
  endpoint: { path: DeadlinePath; options: S },
  clocks: CallClocks,
): Promise<{ options: z.infer<S>; input: Uint8Array; ticket: Required<JobTicket> }> {
  const clock = clocks(c, endpoint.path);
  const options = inputOptions(c, endpoint.options);
  const input = await inputBytes(c, PDF_MAX_BYTES);
  return { options, input, ticket: clock.ticket(input.byteLength) };
}
