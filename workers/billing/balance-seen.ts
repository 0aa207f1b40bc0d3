// The balance an isolate last saw for an account, from its shard's answer to a charge or a
// balance check. The check before work (./charge-once.ts, requireBalance) only spares an unfunded
// client the wait for a result it cannot pay for; the charge after the work is the one that
// counts, in the shard. So when the balance seen a moment ago covers a call many times over, the
// check is answered here and the account's shard gets one call per request (the charge), not two.
// Each call answered here takes its ceiling off what was seen, so a burst from one isolate goes
// back to the shard after a few; a call let through on a stale sight is refused by its charge
// (402, nothing recorded), as a call racing another for the last micros always was.
const SEEN_FOR_MS = 1_000;
const HEADROOM = 20;
const LIMIT = 10_000;

const seen = new Map<string, { micros: number; at: number }>();

export function sawBalance(accountId: string, micros: number, now = Date.now()): void {
  if (seen.size >= LIMIT && !seen.has(accountId)) seen.clear();
  seen.set(accountId, { micros, at: now });
}

/** True when a recent sight covers `micros` HEADROOM times over; the call's ceiling is then taken off it. */
export function surelyCovered(accountId: string, micros: number, now = Date.now()): boolean {
  const sight = seen.get(accountId);
  if (!sight || now - sight.at > SEEN_FOR_MS || sight.micros < micros * HEADROOM) return false;
  sight.micros -= micros;
  return true;
}
