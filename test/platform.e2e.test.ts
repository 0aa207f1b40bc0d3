import { inject } from "vitest";
import { describe, expect, it } from "vitest";

const edge = inject("edgeUrl");
const auth = { Authorization: `Bearer ${inject("apiKey")}` };

describe("the running pair (npm start)", () => {
  it("reports every dependency healthy over HTTP", async () => {
    const res = await fetch(`${edge}/healthz`);
    expect(res.status).toBe(200);
    const health = await res.json<{ dependencies: Record<string, { status: string }> }>();
    expect(Object.values(health.dependencies).map((d) => d.status)).toEqual(["ok", "ok", "ok"]);
  });

  it("serves the account to the printed development key", async () => {
    const res = await fetch(`${edge}/v1/account`, { headers: auth });
    expect(res.status).toBe(200);
    const account = await res.json<{ account_id: string; balance_micros: number }>();
    expect(account.account_id).toBe(inject("accountId"));
    expect(account.balance_micros).toBeGreaterThan(0);
  });

  it("publishes the OpenAPI document", async () => {
    const res = await fetch(`${edge}/openapi.json`);
    expect(res.status).toBe(200);
    const spec = await res.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(spec.openapi).toBe("3.1.0");
    expect(Object.keys(spec.paths)).toContain("/v1/account");
  });

  it("refuses the origin's compute routes without the shared secret", async () => {
    const res = await fetch(`${inject("originUrl")}/image/process`, { method: "POST", body: "x" });
    expect(res.status).toBe(401);
  });
});
