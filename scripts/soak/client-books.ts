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
  /** Charges no call saw (the first answer was lost, a retry got the replay): one per such call. */
  unattributed: number;
  unattributedExpected: number;
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
  const books: ClientBooks = { chargedCalls: 0, mismatches: [], chargedFailures: [], doubleCharges: 0, unattributed: 0, unattributedExpected: 0 };
  const attributed = new Set<string>();
  let unattributedAmountExpected = 0;
  for (const call of calls) {
    for (const attempt of call.attempts) {
      if (attempt.requestId && (attempt.status >= 400 || attempt.status === 0) && ledgerByRequest.has(attempt.requestId)) {
        books.chargedFailures.push(`${call.op} ${attempt.requestId} answered ${attempt.status}`);
      }
    }
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
  }
  books.doubleCharges = Math.max(0, books.unattributed - books.unattributedExpected);
  if (books.doubleCharges === 0 && unattributedAmount !== unattributedAmountExpected) {
    books.mismatches.push(`replayed answers say ${unattributedAmountExpected} micros, their charges sum to ${unattributedAmount}`);
  }
  return books;
}
