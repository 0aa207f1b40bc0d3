import type { FeedQueues } from "./billing/feed-queues.ts";
import type { QueueMessage } from "./jobs/job-message.ts";
import type { OriginContainer } from "./origin/origin-container.ts";
import type { RateWindowCounter } from "./rate-limit/rate-window-counter.ts";
import type { AccountShard } from "./shards/account-shard.ts";
import type { FileShard } from "./shards/file-shard.ts";

// Every binding and variable the edge worker reads; wrangler.toml and .dev.vars supply them. The
// ledger feed's queues (LEDGER_FEED and those bound after it) are declared in ./billing/feed-queues.ts.
export interface Bindings extends FeedQueues {
  DB: D1Database;
  FILES: R2Bucket;
  JOBS: Queue<QueueMessage>;
  /** Optional: how long a shard's new ledger rows wait before they are fed (default 1,000 ms). */
  LEDGER_FEED_DELAY_MS?: string;
  /** One fixed-window request counter per subject (an API key, a download's client address or file). */
  RATE_WINDOWS: DurableObjectNamespace<RateWindowCounter>;
  /** An account's shards: its money, idempotency records, derivatives and jobs (workers/shards/account-shard.ts). */
  ACCOUNT_SHARDS: DurableObjectNamespace<AccountShard>;
  /** One file index per account (workers/shards/file-shard.ts). */
  FILE_SHARDS: DurableObjectNamespace<FileShard>;
  /** File shards each account's new files spread over (workers/files/file-shard-index.ts); may be raised, never lowered. */
  FILE_SHARDS_PER_ACCOUNT?: string;
  ENVIRONMENT: string;
  /** One origin URL, or several comma-separated; empty: the ORIGIN_CONTAINER binding. */
  ORIGIN_URL: string;
  /** How many Containers instances calls are spread over (wrangler.toml's max_instances follows it). */
  ORIGIN_INSTANCES: string;
  /** Optional: a URL listing the origins now (contracts/origin/directory.ts), re-read every second. */
  ORIGIN_DIRECTORY_URL?: string;
  /** The origin as Cloudflare Containers, used when ORIGIN_URL is empty. */
  ORIGIN_CONTAINER?: DurableObjectNamespace<OriginContainer>;
  ORIGIN_SECRET: string;
  SIGNING_SECRET: string;
  /** Scheme and host of every absolute link handed out (never the request's Host), and of the edge cache's keys. */
  PUBLIC_BASE_URL: string;
  IMAGE_ALIAS_HOSTS: string;
  PDF_ALIAS_HOSTS: string;
  ALLOW_LOOPBACK_URLS: string;
  RATE_LIMIT_PER_MINUTE: string;
  /** Counter objects a key's window is spread over (1, exact, unless a key takes near 1,000 requests a second). */
  RATE_WINDOW_COUNTERS_PER_KEY?: string;
  /** R2 S3 API credentials that presign uploads in production (secrets); absent locally. */
  R2_ACCOUNT_ID?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
  /** The Cloudflare zone PUBLIC_BASE_URL's host is in and a token with Cache Purge on it (secrets): purge then reaches every data centre. */
  CF_ZONE_ID?: string;
  CF_API_TOKEN?: string;
  /** Cloudflare's API, up to and including `/client/v4`. */
  CF_API_BASE_URL: string;
}
