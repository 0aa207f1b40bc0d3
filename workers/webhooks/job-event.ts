import type { JobRecord } from "../jobs/job-store.ts";
import { jobView } from "../jobs/job-view.ts";

export type JobEventType = "job.succeeded" | "job.failed" | "job.cancelled";

/** The webhook-id of a job's end: one event per job, stable across every delivery attempt. */
export function jobEventId(jobId: string): string {
  return `msg_${jobId.replace(/^job_/, "")}`;
}

export function jobEventPayload(job: JobRecord, now: number) {
  const view = jobView(job);
  return {
    type: `job.${job.status}` as JobEventType,
    timestamp: new Date(now).toISOString(),
    data: {
      job_id: job.id,
      status: job.status,
      ...(view.result ? { result: view.result } : {}),
      ...(view.error ? { error: view.error } : {}),
    },
  };
}
