import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { unseal } from "../crypto/seal.ts";
import { submitJob } from "../jobs/submit-job.ts";
import { loadJob } from "../jobs/job-store.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";
import { ledgerOf } from "../test-support/account-books.ts";
import { fileShardRows, shardRows } from "../test-support/shard-rows.ts";

/** The job as its account's shard has it. */
async function storedJob(accountId: string, jobId: string) {
  return (await loadJob(env, accountId, jobId))?.job;
}

describe("/v1/account/webhook", () => {
  it("sets an endpoint with a generated secret that async jobs without their own webhook inherit", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/account/webhook", { key: caller, method: "PUT", json: { url: "https://hooks.example.com/acct" } });
    expect(res.status).toBe(200);
    const { secret } = await res.json<{ secret: string }>();
    expect(secret).toMatch(/^whsec_/);

    const accepted = await submitJob(env, { accountId: caller.accountId, keyId: caller.keyId, plan: "pro", scopes: null }, { operation: "xlsx.generate", request: { request_file_id: "file_unread", base_url: "http://127.0.0.1" } });
    const job = await storedJob(caller.accountId, accepted.job_id);
    expect(job!.webhook_url).toBe("https://hooks.example.com/acct");
    expect(await unseal(env.SIGNING_SECRET, job!.webhook_secret_sealed!)).toBe(secret);
    expect(accepted.webhook_secret).toBeUndefined();

    expect((await api("/v1/account/webhook", { key: caller, method: "DELETE" })).status).toBe(200);
    const after = await submitJob(env, { accountId: caller.accountId, keyId: caller.keyId, plan: "pro", scopes: null }, { operation: "xlsx.generate", request: { request_file_id: "file_unread", base_url: "http://127.0.0.1" } });
    expect((await storedJob(caller.accountId, after.job_id))!.webhook_url).toBeNull();
  });

  it("refuses an endpoint on a private address", async () => {
    const caller = await seedCaller();
    const problem = await problemOf(await api("/v1/account/webhook", { key: caller, method: "PUT", json: { url: "http://10.0.0.7/hook" } }));
    expect(problem.status).toBe(422);
  });
});

/** What the account's shards hold: its jobs, its files (a stored input included) and its charges. */
async function storedFor(accountId: string) {
  const [jobs] = await shardRows<{ n: number }>(accountId, "SELECT count(*) AS n FROM jobs");
  const [files] = await fileShardRows<{ n: number }>(accountId, "SELECT count(*) AS n FROM files");
  return { jobs: jobs!.n, files: files!.n, charges: (await ledgerOf(accountId, (row) => row.amountMicros > 0)).length };
}

describe("a job's own webhook", () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  const workbook = { filename: "w.xlsx", sheets: [{ name: "S", columns: [{ key: "a", header: "A", type: "string" }], rows: [["a"]] }] };

  it.each([
    ["a private address", "http://10.0.0.7/hook"],
    ["loopback", "http://127.0.0.1:9000/hook"],
    ["the cloud metadata endpoint", "http://169.254.169.254/latest"],
    ["an internal name", "https://hooks.internal/x"],
  ])("is refused with the account endpoint's 422 when it names %s, before anything is stored, queued or charged", async (_, url) => {
    const caller = await seedCaller();
    const accountProblem = await problemOf(await api("/v1/account/webhook", { key: caller, method: "PUT", json: { url } }));
    for (const [path, body] of [
      ["/v1/image/optimize", { source: { base64: png }, mode: "async", webhook: { url } }],
      ["/v1/image/batch", { images: [{ ref: "a", source: { base64: png } }], mode: "async", webhook: { url } }],
      ["/v1/xlsx/generate", { ...workbook, mode: "async", webhook: { url } }],
    ] as const) {
      const problem = await problemOf(await api(path, { key: caller, json: body }));
      expect([path, problem.status, problem.type]).toEqual([path, 422, accountProblem.type]);
      expect(problem.errors?.map(({ pointer }) => pointer)).toEqual(["/webhook/url"]);
      expect(problem.errors?.[0]?.detail).toBeTypeOf("string");
    }
    expect(await storedFor(caller.accountId)).toEqual({ jobs: 0, files: 0, charges: 0 });
  });

  it.each([
    ["3 bytes", "whsec_AAAA"],
    ["bad base64", "whsec_A"],
    ["no whsec_ prefix", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["65 bytes", `whsec_${btoa("x".repeat(65))}`],
  ])("refuses a secret with %s, on a job and on the account endpoint, with a pointer", async (_, secret) => {
    const caller = await seedCaller();
    const onJob = await problemOf(
      await api("/v1/xlsx/generate", { key: caller, json: { ...workbook, mode: "async", webhook: { url: "https://hooks.example.com/x", secret } } }),
    );
    expect([onJob.status, onJob.errors?.map((e) => e.pointer)]).toEqual([400, ["/webhook/secret"]]);
    const onAccount = await problemOf(await api("/v1/account/webhook", { key: caller, method: "PUT", json: { url: "https://hooks.example.com/x", secret } }));
    expect([onAccount.status, onAccount.errors?.map((e) => e.pointer)]).toEqual([400, ["/secret"]]);
    expect(await storedFor(caller.accountId)).toEqual({ jobs: 0, files: 0, charges: 0 });
  });

  it("accepts a secret the signer can use, and signs with it", async () => {
    const caller = await seedCaller();
    const secret = `whsec_${btoa("k".repeat(32))}`;
    const res = await api("/v1/xlsx/generate", { key: caller, json: { ...workbook, mode: "async", webhook: { url: "https://hooks.example.com/x", secret } } });
    expect(res.status).toBe(202);
    const { job_id } = await res.json<{ job_id: string }>();
    expect(await unseal(env.SIGNING_SECRET, (await storedJob(caller.accountId, job_id))!.webhook_secret_sealed!)).toBe(secret);
  });
});
