// The books are read from the shared database's ledger report, which the account shards feed a
// moment after each charge (workers/billing/ledger-feed.ts: a shard's alarm a second after its
// charge, then a queue batch of up to a second). Before judging them, wait until the report has
// stopped moving for longer than that path takes.
import { setTimeout as sleep } from "node:timers/promises";
import { feedProgress } from "../../workers/billing/d1-ledger.ts";

const QUIET_MS = 4_000;
const POLL_MS = 500;

/** Resolves once the report has not moved for QUIET_MS; throws after `deadlineMs` of movement. */
export async function ledgerFeedSettled(db: D1Database, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let seen = await feedProgress(db);
  let since = Date.now();
  while (Date.now() - since < QUIET_MS) {
    if (Date.now() > deadline) throw new Error(`the ledger feed was still moving after ${deadlineMs} ms`);
    await sleep(POLL_MS);
    const now = await feedProgress(db);
    if (now !== seen) [seen, since] = [now, Date.now()];
  }
}
