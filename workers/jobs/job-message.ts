// Queue messages carry only ids; the job's input lives in D1 and its files in R2, so messages
// stay small whatever the job.
export type QueueMessage =
  | { kind: "job"; job_id: string }
  | {
      kind: "webhook";
      job_id: string;
      attempt: number;
      /** Epoch ms before which the attempt must not run: delays past the queue's 12 h cap are re-enqueued. */
      not_before?: number;
    };
