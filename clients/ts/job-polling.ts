import { PixelPressError } from "./api-error.ts";
import type { Job, JobResult } from "./operation-types.ts";

export interface PollOptions {
  intervalMs?: number;
  maxIntervalMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (job: Job) => void;
}

const FINISHED: Job["status"][] = ["succeeded", "failed", "cancelled"];

/**
 * Polls a job until it finishes; resolves with its result, or throws PixelPressError with the
 * job's problem when it failed or was cancelled.
 */
export async function pollJob(getJob: (jobId: string) => Promise<Job>, jobId: string, options: PollOptions = {}): Promise<JobResult> {
  const { intervalMs = 250, maxIntervalMs = 2_000, timeoutMs = 10 * 60_000, signal, onProgress } = options;
  const deadline = Date.now() + timeoutMs;
  for (let interval = intervalMs; ; interval = Math.min(interval * 1.5, maxIntervalMs)) {
    const job = await getJob(jobId);
    onProgress?.(job);
    if (job.status === "succeeded") {
      if (job.result) return job.result;
      throw new Error(`job ${jobId} succeeded without a result`);
    }
    if (FINISHED.includes(job.status)) {
      throw new PixelPressError(
        job.error ?? { type: "about:blank", title: `Job ${job.status}`, status: 409, detail: `Job ${jobId} was ${job.status}.` },
      );
    }
    if (Date.now() + interval > deadline) throw new Error(`job ${jobId} did not finish within ${timeoutMs} ms (last status: ${job.status})`);
    signal?.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
