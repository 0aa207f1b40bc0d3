// Queue messages carry only ids; the job's input lives in its account's shard and its files in R2,
// so messages stay small whatever the job. A message names the job's account, and the job's id
// names which of the account's shards keeps it, so its consumer finds the shard; one enqueued before jobs moved into the shards names only the job
// (./message-account.ts finds its account).
export type QueueMessage =
  | { kind: "job"; job_id: string; account_id?: string }
  | {
      kind: "webhook";
      job_id: string;
      account_id?: string;
      attempt: number;
      /** Epoch ms before which the attempt must not run: delays past the queue's 12 h cap are re-enqueued. */
      not_before?: number;
    };
