// The client's side of the books: sync requests are charged under `req:<request id>` (batch items
// under `req:<request id>:<ref>`), and only the client logs know which request id each answer had.
import type { Call } from "./client.ts";
import type { LedgerRow } from "./reconcile.ts";

export interface ClientBooks {
  /** Sync calls answered 2xx with a charge in their body (zero included). */
  chargedCalls: number;
  /** A call's answer says one amount, the ledger holds another for its request id. */
  mismatches: string[];
  /** Request ids charged that answered the client with an error. */
  chargedFailures: string[];
  /** More `req:` charges than calls that could account for them. */
  doubleCharges: number;
  /**
   * What a double charge is made of, to explain one: the charges no call saw (request id,
   * operation, amount) and the calls that could account for such charges (a 2xx replay, an
   * unanswered attempt), each with its key and its attempts' statuses in order.
   */
  unattributedCharges: string[];
  retriedCalls: string[];
  /** Charges no call saw (the first answer was lost, a retry got the replay): one per such call. */
  unattributed: number;
  unattributedExpected: number;
  /**
   * Calls whose last attempt went unanswered (a timeout near the run's end is not retried, or every
   * attempt timed out): the server may have finished and charged one of their attempts, at most
   * once since all carry one Idempotency-Key, and the client never learnt its request id.
   */
  endedUnanswered: number;
}

const parentRequestId = (chargeKey: string) => chargeKey.split(":")[1]!;

function chargedMicros(call: Call): number | null {
  const billing = (call.body as { billing?: { charged_micros?: unknown } } | null)?.billing;
  return typeof billing?.charged_micros === "number" ? billing.charged_micros : null;
}

export function reconcileClientCharges(calls: Call[], requestCharges: LedgerRow[]): ClientBooks {
  const ledgerByRequest = new Map<string, number>();
  for (const row of requestCharges) {
    const id = parentRequestId(row.charge_key);
    ledgerByRequest.set(id, (ledgerByRequest.get(id) ?? 0) + row.amount_micros);
  }
  const books: ClientBooks = { chargedCalls: 0, mismatches: [], chargedFailures: [], doubleCharges: 0, unattributedCharges: [], retriedCalls: [], unattributed: 0, unattributedExpected: 0, endedUnanswered: 0 };
  const attributed = new Set<string>();
  let unattributedAmountExpected = 0;
  for (const call of calls) {
    if (call.attempts.some((a) => a.status === 0 || a.replayed)) {
      books.retriedCalls.push(`${call.op} ${call.idempotencyKey ?? "(no key)"}: ${call.attempts.map((a) => `${a.status}${a.replayed ? " replay" : ""}${a.requestId ? ` ${a.requestId}` : ""}`).join(", ")}`);
    }
    for (const attempt of call.attempts) {
      if (attempt.requestId && (attempt.status >= 400 || attempt.status === 0) && ledgerByRequest.has(attempt.requestId)) {
        books.chargedFailures.push(`${call.op} ${attempt.requestId} answered ${attempt.status}`);
      }
    }
    if (call.status === 0 && call.idempotencyKey !== null) books.endedUnanswered++;
    const charged = call.status >= 200 && call.status < 300 ? chargedMicros(call) : null;
    if (charged === null) continue;
    books.chargedCalls++;
    const original = call.attempts.find((a) => a.status >= 200 && a.status < 300 && !a.replayed);
    if (!original?.requestId) {
      books.unattributedExpected++;
      unattributedAmountExpected += charged;
      continue;
    }
    attributed.add(original.requestId);
    // A batch whose every item failed answers 200 at $0 and records nothing.
    const ledger = ledgerByRequest.get(original.requestId) ?? 0;
    if (ledger !== charged) books.mismatches.push(`${call.op} ${original.requestId}: answer says ${charged}, ledger ${ledger}`);
  }
  let unattributedAmount = 0;
  for (const [id, amount] of ledgerByRequest) {
    if (attributed.has(id)) continue;
    books.unattributed++;
    unattributedAmount += amount;
    books.unattributedCharges.push(`${id} ${requestCharges.find((row) => parentRequestId(row.charge_key) === id)!.operation} ${amount}`);
  }
  // Each replayed call accounts for one charge nobody saw, each call that ended unanswered for at
  // most one; past those, a charge is one request charged twice.
  books.doubleCharges = Math.max(0, books.unattributed - books.unattributedExpected - books.endedUnanswered);
  const unansweredCharges = books.unattributed - books.unattributedExpected;
  if (books.doubleCharges === 0 && unansweredCharges <= 0 && unattributedAmount !== unattributedAmountExpected) {
    books.mismatches.push(`replayed answers say ${unattributedAmountExpected} micros, their charges sum to ${unattributedAmount}`);
  }
  return books;
}
