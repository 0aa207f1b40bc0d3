import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { unseal } from "../crypto/seal.ts";
import { submitJob } from "../jobs/submit-job.ts";
import { loadJob } from "../jobs/job-store.ts";
import { api, problemOf, seedCaller } from "../test-support/api.ts";

describe("/v1/account/webhook", () => {
  it("sets an endpoint with a generated secret that async jobs without their own webhook inherit", async () => {
    const caller = await seedCaller();
    const res = await api("/v1/account/webhook", { key: caller, method: "PUT", json: { url: "https://hooks.example.com/acct" } });
    expect(res.status).toBe(200);
    const { secret } = await res.json<{ secret: string }>();
    expect(secret).toMatch(/^whsec_/);

    const accepted = await submitJob(env, { accountId: caller.accountId, keyId: caller.keyId, plan: "pro", scopes: null }, { operation: "xlsx.generate", request: {} });
    const job = await loadJob(env.DB, accepted.job_id);
    expect(job!.webhook_url).toBe("https://hooks.example.com/acct");
    expect(await unseal(env.SIGNING_SECRET, job!.webhook_secret_sealed!)).toBe(secret);
    expect(accepted.webhook_secret).toBeUndefined();

    expect((await api("/v1/account/webhook", { key: caller, method: "DELETE" })).status).toBe(200);
    const after = await submitJob(env, { accountId: caller.accountId, keyId: caller.keyId, plan: "pro", scopes: null }, { operation: "xlsx.generate", request: {} });
    expect((await loadJob(env.DB, after.job_id))!.webhook_url).toBeNull();
  });

  it("refuses an endpoint on a private address", async () => {
    const caller = await seedCaller();
    const problem = await problemOf(await api("/v1/account/webhook", { key: caller, method: "PUT", json: { url: "http://10.0.0.7/hook" } }));
    expect(problem.status).toBe(422);
  });
});
