import type { JobOperation } from "../../contracts/operations.ts";
import type { JobDelivered } from "./job-delivered.ts";
import { jobResultSchemas } from "./job-view.ts";

/** What a succeeded job's result says was charged and delivered, read through its operation's schema; null when it is not its operation's result. */
export function deliveredByJob(operation: JobOperation, result: unknown): JobDelivered | null {
  if (operation === "image.batch") {
    const parsed = jobResultSchemas["image.batch"].safeParse(result);
    if (!parsed.success) return null;
    const fileIds = parsed.data.results.flatMap((item) => (item.status === "ok" && item.file_id !== null ? [item.file_id] : []));
    return { charged_micros: parsed.data.billing.charged_micros, file_ids: fileIds };
  }
  const parsed = jobResultSchemas[operation].safeParse(result);
  if (!parsed.success) return null;
  return { charged_micros: parsed.data.billing.charged_micros, file_ids: parsed.data.file_id === null ? [] : [parsed.data.file_id] };
}
