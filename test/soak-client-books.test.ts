import { describe, expect, it } from "vitest";
import { reconcileClientCharges } from "../scripts/soak/client-books.ts";
import type { Attempt, Call } from "../scripts/soak/client.ts";
import type { LedgerRow } from "../scripts/soak/reconcile.ts";

const attempt = (status: number, requestId: string | null, replayed = false): Attempt => ({ started: 0, ended: 1, status, requestId, replayed });

function call(attempts: Attempt[], charged: number | null): Call {
  const last = attempts.at(-1)!;
  return { op: "image.optimize.sync", idempotencyKey: "soak-key", attempts, status: last.status, body: charged === null ? null : { billing: { charged_micros: charged } }, bytes: null };
}

const charge = (requestId: string, amount = 800): LedgerRow => ({ account_id: "acct_1", charge_key: `req:${requestId}`, operation: "image.optimize", amount_micros: amount });

describe("the client's side of the books", () => {
  it("balances a call answered once, and one whose lost answer a retry got as a replay", () => {
    const books = reconcileClientCharges([call([attempt(200, "req_a")], 800), call([attempt(0, null), attempt(200, "req_b", true)], 800)], [charge("req_a"), charge("req_b")]);
    expect([books.doubleCharges, books.mismatches]).toEqual([0, []]);
  });

  it("counts no double charge for a call whose last attempt went unanswered while the server charged it", () => {
    // A timeout in the run's last seconds is not retried: the server finished and charged req_c,
    // and the client never learnt that request id.
    const books = reconcileClientCharges([call([attempt(200, "req_a")], 800), call([attempt(0, null)], null)], [charge("req_a"), charge("req_c")]);
    expect(books.doubleCharges).toBe(0);
    expect(books.unattributedCharges).toEqual(["req_c image.optimize 800"]);
  });

  it("still counts a double charge when one key's lost attempt and its fresh retry were both charged", () => {
    const books = reconcileClientCharges([call([attempt(0, null), attempt(200, "req_e")], 800)], [charge("req_d"), charge("req_e")]);
    expect(books.doubleCharges).toBe(1);
    expect(books.unattributedCharges).toEqual(["req_d image.optimize 800"]);
    expect(books.retriedCalls).toEqual(["image.optimize.sync soak-key: 0, 200 req_e"]);
  });
});
