import { createMessageBatch, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chargeBranch, jobBranch } from "../billing/account-branches.ts";
import { itemChargeKey, jobChargeKey, jobOfChargeKey } from "../billing/charge-key.ts";
import { currentBalance } from "../billing/charge-once.ts";
import { accountShard } from "../shards/shard-stub.ts";
import { api, seedCaller, type TestCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { recordingQueue, type RecordedMessage } from "../test-support/recording-queue.ts";
import { jobRunners } from "./job-runners.ts";
import { consumeJobQueue } from "./queue-consumer.ts";

const shards = { FILE_SHARDS_PER_ACCOUNT: "4" };
// The job's message is kept here and consumed by the test under the same setting, not by the
// runtime's own consumer, whose edge knows one shard an account (a file in shard 2 is no file there).
const queued: RecordedMessage[] = [];
const branched = { ...shards, JOBS: recordingQueue(env.JOBS, queued) };
const workbook = { filename: "spread.xlsx", mode: "async", sheets: [{ name: "S", columns: [{ key: "n", type: "integer" }], rows: [[1], [2]] }] };

/** An async workbook's job, accepted by an edge whose accounts have four shards. */
async function submitted(caller: TestCaller): Promise<string> {
  const res = await fetchWithEnv(
    branched,
    new Request("http://api.test/v1/xlsx/generate", {
      method: "POST",
      headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" },
      body: JSON.stringify(workbook),
    }),
  );
  expect(res.status).toBe(202);
  return (await res.json<{ job_id: string }>()).job_id;
}

describe("jobs over an account's several shards", () => {
  it("name their shard in their id, so a job's charge, with its items', goes where the job is", () => {
    const id = "job_3abcdefghijklmnopqrst";
    expect(jobBranch(id)).toBe(3);
    expect(jobBranch("job_abcdefghijklmnopqrst")).toBe(0);
    expect(jobOfChargeKey(itemChargeKey(jobChargeKey(id), "item-2"))).toBe(id);
    expect(chargeBranch(env, jobChargeKey(id))).toBe(3);
    expect(chargeBranch(env, itemChargeKey(jobChargeKey(id), "item-2"))).toBe(3);
  });

  it("runs, charges and reports a job in the shard its id names", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    let jobId = await submitted(caller);
    // New ids pick one of the four shards at random: take one that is not the first.
    for (let tries = 0; jobBranch(jobId) === 0 && tries < 20; tries++) jobId = await submitted(caller);
    const branch = jobBranch(jobId);
    expect(branch).toBeGreaterThan(0);
    expect(await accountShard(env, caller.accountId).job(caller.accountId, jobId)).toBeNull();

    const message = queued.find((m) => m.body.job_id === jobId)!;
    await consumeJobQueue(createMessageBatch("pixelpress-jobs", [{ id: "x", timestamp: new Date(), attempts: 1, body: message.body }]), { ...env, ...branched }, jobRunners);
    const view = (key: TestCaller) => new Request(`http://api.test/v1/jobs/${jobId}`, { headers: { Authorization: `Bearer ${key.secret}` } });
    const job = await (await fetchWithEnv(branched, view(caller))).json<{ status: string; result: { billing: { charged_micros: number } } }>();
    expect(job.status).toBe("succeeded");
    const charged = job.result.billing.charged_micros;
    expect(charged).toBeGreaterThan(0);
    const ledger = await accountShard(env, caller.accountId, branch).ledger(caller.accountId);
    expect(ledger.filter((row) => row.chargeKey === jobChargeKey(jobId)).map((row) => row.amountMicros)).toEqual([charged]);
    expect(await currentBalance({ ...env, ...shards }, caller.accountId)).toBe(100_000 - charged);
    // An edge that knows one shard an account finds no job in another, and wakes none: a 404.
    expect((await api(`/v1/jobs/${jobId}`, { key: caller })).status).toBe(404);
    expect((await api(`/v1/jobs/${jobId}/cancel`, { key: caller, method: "POST" })).status).toBe(404);
  });
});
