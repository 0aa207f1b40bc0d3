import { describe, expect, expectTypeOf, it } from "vitest";
import { pollJob } from "./job-polling.ts";
import type { Job, JobResult } from "./operation-types.ts";

const workbook: JobResult<"xlsx.generate"> = {
  file_id: "file_Xl5sWq2nR8tYb4Kc6Md0",
  url: "http://127.0.0.1:8787/v1/files/file_Xl5sWq2nR8tYb4Kc6Md0/content?expires=1795514400&sig=3q2-7w",
  expires_at: "2026-11-24T10:00:00.000Z",
  filename: "report.xlsx",
  stats: { sheets: 1, rows: 2, cells: 4, output_bytes: 6_212 },
  billing: { charged_micros: 5_001 },
};

function xlsxJob(status: Job["status"], result?: JobResult<"xlsx.generate">): Job {
  return {
    job_id: "job_Q2n7bT0kRz4Lw9Xc1Vd8",
    operation: "xlsx.generate",
    status,
    progress: status === "succeeded" ? 100 : 50,
    progress_detail: { done: status === "succeeded" ? 2 : 1, total: 2, unit: "stages" },
    attempts: 1,
    created_at: "2026-11-24T09:00:00.000Z",
    started_at: "2026-11-24T09:00:01.000Z",
    finished_at: status === "succeeded" ? "2026-11-24T09:00:02.000Z" : null,
    status_url: "/v1/jobs/job_Q2n7bT0kRz4Lw9Xc1Vd8",
    ...(result ? { result } : {}),
  };
}

function jobsInTurn(...jobs: Job[]) {
  return () => Promise.resolve(jobs.length > 1 ? jobs.shift()! : jobs[0]!);
}

describe("pollJob", () => {
  it("resolves with the succeeded job's result, typed as the union the job's operation narrows", async () => {
    const result = await pollJob(jobsInTurn(xlsxJob("running"), xlsxJob("succeeded", workbook)), "job_Q2n7bT0kRz4Lw9Xc1Vd8", { intervalMs: 1 });
    expectTypeOf(result).toEqualTypeOf<JobResult>();
    expect(result).toEqual(workbook);
  });

  it("refuses a succeeded job that carries no result instead of resolving with undefined", async () => {
    await expect(pollJob(jobsInTurn(xlsxJob("succeeded")), "job_Q2n7bT0kRz4Lw9Xc1Vd8", { intervalMs: 1 })).rejects.toThrow(
      "job job_Q2n7bT0kRz4Lw9Xc1Vd8 succeeded without a result",
    );
  });
});
