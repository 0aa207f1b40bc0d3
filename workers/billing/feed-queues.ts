// The ledger feed's queues. A queue takes about 5,000 messages a second, and every shard that
// changed something sends one a feed window, so the feed grows by queues: LEDGER_FEED, then
// LEDGER_FEED_1 to LEDGER_FEED_7 as wrangler.toml binds them (each a producer and a consumer of a
// queue named `pixelpress-ledger`, `pixelpress-ledger-1`, ...). An account's shards all send to the
// queue its id hashes to among those bound; a message that goes through another queue after one is
// added is written the same way, since the report ignores an older change arriving later.
import { crc32 } from "../crypto/crc32.ts";
import { LEDGER_FEED_QUEUE, type LedgerFeedMessage } from "./ledger-feed.ts";

export const FEED_QUEUE_BINDINGS = ["LEDGER_FEED", "LEDGER_FEED_1", "LEDGER_FEED_2", "LEDGER_FEED_3", "LEDGER_FEED_4", "LEDGER_FEED_5", "LEDGER_FEED_6", "LEDGER_FEED_7"] as const;

/** The queue names of the feed's queues, in the bindings' order. */
export const FEED_QUEUE_NAMES = FEED_QUEUE_BINDINGS.map((_, i) => (i === 0 ? LEDGER_FEED_QUEUE : `${LEDGER_FEED_QUEUE}-${i}`));

/** The feed's queues an env binds: LEDGER_FEED always, the others as configured. */
export type FeedQueues = { LEDGER_FEED: Queue<LedgerFeedMessage> } & Partial<Record<(typeof FEED_QUEUE_BINDINGS)[number], Queue<LedgerFeedMessage>>>;

/** The queue an account's shards send their feed to. */
export function feedQueueOf(env: FeedQueues, accountId: string): Queue<LedgerFeedMessage> {
  const bound = FEED_QUEUE_BINDINGS.map((binding) => env[binding]).filter((queue) => queue !== undefined);
  return bound[crc32(accountId) % bound.length]!;
}

/** Whether a batch came from one of the feed's queues. */
export function isFeedQueue(queueName: string): boolean {
  return FEED_QUEUE_NAMES.includes(queueName);
}
