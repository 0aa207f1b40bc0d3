import { createApp } from "./app.ts";
import { isFeedQueue } from "./billing/feed-queues.ts";
import { consumeLedgerFeed } from "./billing/ledger-feed.ts";
import type { Bindings } from "./env.ts";
import type { QueueMessage } from "./jobs/job-message.ts";
import { jobRunners } from "./jobs/job-runners.ts";
import { consumeDeadLetters, consumeJobQueue } from "./jobs/queue-consumer.ts";
import { redeliverJobMessage } from "./jobs/redeliver-job.ts";
import { sweepExpiredFiles } from "./files/file-lifecycle.ts";
import { chargeDurableStorage } from "./files/storage-meter.ts";
import { pruneExpiredRecords } from "./maintenance/prune-records.ts";

export { OriginContainer } from "./origin/origin-container.ts";
export { RateWindowCounter } from "./rate-limit/rate-window-counter.ts";
export { AccountShard } from "./shards/account-shard.ts";
export { FileShard } from "./shards/file-shard.ts";

const app = createApp();
const SWEEP_BATCH = 500;
const SWEEP_MAX_BATCHES = 20;

/** Sweeps in batches until a batch comes back short, bounded so one run cannot outlive its limits. */
async function sweepAllExpiredFiles(env: Bindings, now: number): Promise<void> {
  for (let i = 0; i < SWEEP_MAX_BATCHES; i++) {
    if ((await sweepExpiredFiles(env, now, SWEEP_BATCH)) < SWEEP_BATCH) return;
  }
}
const DEAD_LETTER_SUFFIX = "-dlq";

export default {
  async fetch(request, env, ctx) {
    return (await redeliverJobMessage(request, env)) ?? app.fetch(request, env, ctx);
  },

  async queue(batch, env) {
    if (isFeedQueue(batch.queue)) await consumeLedgerFeed(batch, env.DB);
    else if (batch.queue.endsWith(DEAD_LETTER_SUFFIX)) await consumeDeadLetters(batch, env);
    else await consumeJobQueue(batch, env, jobRunners);
  },

  scheduled(controller, env, ctx) {
    const now = controller.scheduledTime;
    ctx.waitUntil(Promise.all([sweepAllExpiredFiles(env, now), chargeDurableStorage(env, now), pruneExpiredRecords(env.DB, now)]));
  },
} satisfies ExportedHandler<Bindings, QueueMessage>;
