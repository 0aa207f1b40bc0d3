import { describe, expect, it } from "vitest";
import type { QueueMessage } from "./job-message.ts";
import { redeliverJobMessage } from "./redeliver-job.ts";

function queue() {
  const sent: QueueMessage[] = [];
  return { sent, JOBS: { send: (message: QueueMessage) => Promise.resolve(void sent.push(message)) } as unknown as Queue<QueueMessage> };
}

const path = "http://api.test/__dev/jobs/job_Q2n7bT0kRz4Lw9Xc1Vd8/redeliver";

describe("the development-only duplicate delivery path", () => {
  it("sends the job's message through the producer again in development", async () => {
    const { sent, JOBS } = queue();
    const res = await redeliverJobMessage(new Request(path, { method: "POST" }), { ENVIRONMENT: "development", JOBS });
    expect(res?.status).toBe(202);
    expect(sent).toEqual([{ kind: "job", job_id: "job_Q2n7bT0kRz4Lw9Xc1Vd8" }]);
  });

  it("does not exist anywhere else, nor for other methods or paths", async () => {
    const { sent, JOBS } = queue();
    expect(await redeliverJobMessage(new Request(path, { method: "POST" }), { ENVIRONMENT: "production", JOBS })).toBeNull();
    expect(await redeliverJobMessage(new Request(path), { ENVIRONMENT: "development", JOBS })).toBeNull();
    expect(await redeliverJobMessage(new Request("http://api.test/__dev/jobs/job_x/redeliver", { method: "POST" }), { ENVIRONMENT: "development", JOBS })).toBeNull();
    expect(sent).toEqual([]);
  });
});
