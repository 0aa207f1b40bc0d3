import { z } from "zod";
import type { JobOperation } from "../../contracts/operations.ts";
import type { JobDelivered } from "./job-delivered.ts";
import { jobResultSchemas } from "./job-view.ts";

// What every operation's result carries about its money and its outputs: a charge, and its output
// file (`file_id`) or, for a batch, each item's (`results`). Read through this after the result
// has passed its own operation's schema, so no operation is named here.
const deliveringResult = z.object({
  billing: z.object({ charged_micros: z.number().int() }),
  file_id: z.string().nullable().optional(),
  results: z.array(z.object({ status: z.string(), file_id: z.string().nullable().optional() })).optional(),
});

/** What a succeeded job's result says was charged and delivered; null when it is not its operation's result. */
export function deliveredByJob(operation: JobOperation, result: unknown): JobDelivered | null {
  if (!jobResultSchemas[operation].safeParse(result).success) return null;
  const delivering = deliveringResult.safeParse(result);
  if (!delivering.success) return null;
  const { billing, file_id, results } = delivering.data;
  const items = results?.flatMap((item) => (item.status === "ok" && item.file_id ? [item.file_id] : [])) ?? [];
  return { charged_micros: billing.charged_micros, file_ids: [...(file_id ? [file_id] : []), ...items] };
}
