import { describe, expect, inject, it } from "vitest";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { balanceOf, ledgerOf } from "../test-support/account-books.ts";

// The real origin with every deadline cut to about nothing (ORIGIN_DEADLINE_SCALE): each call it
// takes runs past its deadline, its PDF worker is terminated, and the client must get the problem
// at $0 with nothing in the ledger.
const deadlineBoundOrigin = { ORIGIN_URL: inject("testDeadlineBoundOriginUrl") };

function post(caller: TestCaller, path: string, body: unknown): Promise<Response> {
  return fetchWithEnv(
    deadlineBoundOrigin,
    new Request(`http://api.test${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

/** The account's ledger rows but its top-ups (the opening one is applied at the first balance check). */
async function ledgerRows(accountId: string): Promise<number> {
  return (await ledgerOf(accountId, (row) => row.operation !== "account.topup")).length;
}

describe("an origin call past its deadline", () => {
  it("answers PDF analysis processing_timeout, records nothing (analysis is otherwise recorded at $0) and charges nothing", async () => {
    const caller = await seedCaller({ balanceMicros: 5_000 });
    const rowsBefore = await ledgerRows(caller.accountId);
    const res = await post(caller, "/v1/pdf/analyze", { source: { base64: encodeBase64(await generatedBytes("photo-placed-small.pdf")) } });
    const problem = await problemOf(res);
    expect(problem.status).toBe(422);
    expect(problem.type).toBe("https://pixelpress.dev/problems/processing_timeout");
    expect(problem.detail).toMatch(/deadline/);
    expect(await ledgerRows(caller.accountId)).toBe(rowsBefore);
    expect(await balanceOf(caller.accountId)).toBe(5_000);
  });

  it("answers an image optimize processing_timeout at $0", async () => {
    const caller = await seedCaller({ balanceMicros: 5_000 });
    const rowsBefore = await ledgerRows(caller.accountId);
    const res = await post(caller, "/v1/image/optimize", { source: { base64: encodeBase64(await generatedBytes("landscape-6.jpg")) }, options: { width: 200 } });
    const problem = await problemOf(res);
    expect(problem.type).toBe("https://pixelpress.dev/problems/processing_timeout");
    expect(await ledgerRows(caller.accountId)).toBe(rowsBefore);
    expect(await balanceOf(caller.accountId)).toBe(5_000);
  });
});
