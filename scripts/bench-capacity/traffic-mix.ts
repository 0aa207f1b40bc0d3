// The traffic the capacity model is asked to carry (issue #44): requests a second by kind, spread
// over accounts by a Zipf law, so the busiest account's own shard is sized too.
export const TRAFFIC_MIX = {
  accounts: 10_000,
  zipfExponent: 1.1,
  perSecond: { transformHit: 50_000, transformMiss: 2_000, optimize: 200, pdfCompress: 20, xlsx: 5 },
} as const;

export type TrafficKind = keyof typeof TRAFFIC_MIX.perSecond;

/** The busiest account's share of all traffic: rank 1's weight over the sum of k^-s for k = 1..accounts. */
export function busiestAccountShare(accounts: number, exponent: number): number {
  let sum = 0;
  for (let rank = 1; rank <= accounts; rank++) sum += rank ** -exponent;
  return 1 / sum;
}

/**
 * How many of the accounts' shards make at least one change in a window, when `perSecond` changes a
 * second are spread by the Zipf law over the accounts and evenly over each account's `shards`: each
 * shard's changes arrive as a Poisson stream, so one of account k's shards is active with
 * probability 1 - e^(-rate_k / shards x window). A shard's ledger feed sends one message per active
 * window, so this is the feed's messages a window.
 */
export function activeShards(accounts: number, exponent: number, perSecond: number, windowSeconds: number, shards: number): number {
  let norm = 0;
  for (let rank = 1; rank <= accounts; rank++) norm += rank ** -exponent;
  let active = 0;
  for (let rank = 1; rank <= accounts; rank++) active += shards * (1 - Math.exp(-((perSecond * rank ** -exponent) / norm / shards) * windowSeconds));
  return active;
}
