import type { Bindings } from "../env.ts";
import { reportedJobAccount } from "./d1-jobs.ts";
import type { QueueMessage } from "./job-message.ts";

/**
 * The account whose shard holds the message's job. A message enqueued before messages named it
 * finds it in the shared database's row of the job (the row the shard imports, or the report once
 * fed): one read, for those messages only. Null when the report does not have the job (yet).
 */
export async function messageAccount(env: Pick<Bindings, "DB">, message: QueueMessage): Promise<string | null> {
  return message.account_id ?? (await reportedJobAccount(env.DB, message.job_id));
}
