// The capacity model: per-request costs times the traffic mix, held against published limits,
// for the design before the move (every account's state in one D1, its statements as recorded
// then) and the per-account shard design as built (account state in Durable Objects of its own,
// its shard and its file shards; D1 keeps what is cross-account and the reports the shards feed in
// queue batches), priced from the statements and shard calls measured in this run.
import { FEED_DELAY_MS } from "../../workers/billing/ledger-feed.ts";
import { FEED_QUEUE_BINDINGS } from "../../workers/billing/feed-queues.ts";
import { MAX_FILE_SHARDS } from "../../workers/files/file-shard-index.ts";
import { MAX_COUNTERS_PER_KEY } from "../../workers/rate-limit/fixed-window.ts";
import type { RequestKind, StatementBudget } from "../../workers/db/statement-budgets.ts";
import { STATEMENTS_BEFORE_THE_MOVE } from "./before-the-move.ts";
import { PUBLISHED_LIMITS } from "./published-limits.ts";
import { activeShards, TRAFFIC_MIX, type TrafficKind } from "./traffic-mix.ts";

export type Design = "one D1 (before the move)" | "per-account shards (as built)";

export interface Measured {
  statements: Record<RequestKind, StatementBudget>;
  /** Origin CPU ms per request of each kind that reaches the origin. */
  originCpuMs: Record<Exclude<TrafficKind, "transformHit">, number>;
}

/** What an operator sets without changing code: wrangler.toml's max_instances, RATE_WINDOW_COUNTERS_PER_KEY, FILE_SHARDS_PER_ACCOUNT, LEDGER_FEED_DELAY_MS and the feed queues it binds. */
export interface Configuration {
  originInstances: number;
  keyWindowCounters: number;
  fileShardsPerAccount: number;
  feedWindowSeconds: number;
  /** Feed queues bound (LEDGER_FEED and those after it, workers/billing/feed-queues.ts). */
  feedQueues: number;
}

export const DEFAULT_FEED_WINDOW_SECONDS = FEED_DELAY_MS / 1000;

/** Which counted request stands for each kind of traffic: PDF compress is modelled as a job, the worst case. */
export const STATEMENTS_OF: Record<TrafficKind, RequestKind> = {
  transformHit: "transform hit",
  transformMiss: "transform miss (file)",
  optimize: "optimize",
  pdfCompress: "pdf compress async, its job and webhook",
  xlsx: "xlsx generate",
};

// Requests that charge the account: each is a ledger row its shard feeds to the shared report.
const CHARGED: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 1, optimize: 1, pdfCompress: 1, xlsx: 1 };
// Requests that change the account's files: each is a file its file shard feeds to the shared report.
const FILES_CHANGED: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 0, optimize: 1, pdfCompress: 1, xlsx: 1 };
// A shard feeds its changes a window after the first (FEED_DELAY_MS, workers/shards/shard.ts), one
// message for all of that window's; the consumer writes a batch of 100 messages in the statements
// counted for it (a batch whose every message carries a charge, a derivative and a file: the most it writes).
const FEED_MESSAGES_PER_BATCH = 100;
const FEED_BATCH: RequestKind = "ledger feed, a batch of 100 messages";
// Queue messages per request: a job's own message and its webhook's.
const QUEUE_MESSAGES: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 0, optimize: 0, pdfCompress: 2, xlsx: 0 };
// Of each request's account-shard calls, those placed by key, source or job id
// (workers/billing/account-branches.ts), which spread over the account's shards: a file miss keeps
// its derivative and charges for it in the shard its file's id names, a sync call charges in the
// one its key hashes to, and a job's calls (its creation, claim, progress, charge, end and webhook
// attempt) go to the one its id names.
const PLACED_ACCOUNT_CALLS: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 1, optimize: 1, pdfCompress: 8, xlsx: 1 };
// Calls each of the account's shards takes: a job's input, deleted when the job ends, asks every
// shard for derivatives drawn with it.
const EVERY_SHARD_ACCOUNT_CALLS: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 0, optimize: 0, pdfCompress: 1, xlsx: 0 };
// Requests that count against their key's rate window (hits are not counted).
const RATE_COUNTED: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 1, optimize: 1, pdfCompress: 1, xlsx: 1 };

export interface Component {
  name: string;
  load: string;
  limit: string;
  utilisation: number;
  /** What configuration (or design) moves this component's ceiling. */
  remedy: string;
}

const sum = (rates: Record<TrafficKind, number>, per: (kind: TrafficKind) => number) =>
  (Object.keys(rates) as TrafficKind[]).reduce((total, kind) => total + rates[kind] * per(kind), 0);

/** vCPU the origin pool is busy with: each kind's rate times its measured CPU. */
function originVcpu(measured: Measured, rates: Record<TrafficKind, number>): number {
  return sum(rates, (k) => (k === "transformHit" ? 0 : measured.originCpuMs[k] / 1000));
}

/** Feed messages a second: one per account shard that charged, and one per file shard that changed a file, in a feed window, over `shards` of each an account. */
function feedMessages(rates: Record<TrafficKind, number>, windowSeconds: number, shards: number): number {
  const active = (perSecond: number) => activeShards(TRAFFIC_MIX.accounts, TRAFFIC_MIX.zipfExponent, perSecond, windowSeconds, shards);
  return (active(sum(rates, (k) => CHARGED[k])) + active(sum(rates, (k) => FILES_CHANGED[k]))) / windowSeconds;
}

// The utilisation an operator sizes a configurable component for.
const TARGET = 0.5;
const MAX_FEED_WINDOW_SECONDS = 10;

/** Calls a second the busiest account makes to its shards together, or to its file shards together. */
function busiestShardCalls(measured: Measured, rates: Record<TrafficKind, number>, busiestShare: number, object: "account" | "file"): number {
  return busiestShare * sum(rates, (k) => measured.statements[STATEMENTS_OF[k]].shardCalls[object]);
}

/** Requests a second the busiest key's window takes: its account's counted requests, all on one key. */
function busiestKeyRate(rates: Record<TrafficKind, number>, busiestShare: number): number {
  return busiestShare * sum(rates, (k) => RATE_COUNTED[k]);
}

/** Of the busiest account's shard calls a second, those placed by key, source or job id (PLACED_ACCOUNT_CALLS), spread over its shards. */
function busiestPlacedCalls(rates: Record<TrafficKind, number>, busiestShare: number): number {
  return busiestShare * sum(rates, (k) => PLACED_ACCOUNT_CALLS[k]);
}

/** Of the busiest account's shard calls a second, those every one of its shards takes (EVERY_SHARD_ACCOUNT_CALLS). */
function busiestEveryShardCalls(rates: Record<TrafficKind, number>, busiestShare: number): number {
  return busiestShare * sum(rates, (k) => EVERY_SHARD_ACCOUNT_CALLS[k]);
}

/**
 * The busiest account's first shard: every call neither placed nor sent to every shard, and its
 * share of those placed (it is one of the `shards` they spread over). Allotments are left out: a
 * branch asks for one when it has spent its share of the balance, seldom beside the calls it
 * charges for.
 */
function busiestFirstShardCalls(measured: Measured, rates: Record<TrafficKind, number>, busiestShare: number, shards: number): number {
  const placed = busiestPlacedCalls(rates, busiestShare);
  return busiestShardCalls(measured, rates, busiestShare, "account") - placed + placed / shards;
}

/** A branch of the busiest account's shard: its share of the placed calls, and those every shard takes. */
function busiestBranchCalls(rates: Record<TrafficKind, number>, busiestShare: number, shards: number): number {
  return busiestPlacedCalls(rates, busiestShare) / shards + busiestEveryShardCalls(rates, busiestShare);
}

/** The fewest shards an account needs for its first shard and its branches to be at `target` of a Durable Object's calls (MAX_FILE_SHARDS when none are enough). */
function accountShardsFor(measured: Measured, rates: Record<TrafficKind, number>, busiestShare: number, target: number): number {
  const placed = busiestPlacedCalls(rates, busiestShare);
  const limit = target * PUBLISHED_LIMITS.durableObjectRequestsPerSecond;
  const room = Math.min(limit - (busiestShardCalls(measured, rates, busiestShare, "account") - placed), limit - busiestEveryShardCalls(rates, busiestShare));
  return room <= 0 ? MAX_FILE_SHARDS : Math.min(MAX_FILE_SHARDS, Math.max(1, Math.ceil(placed / room)));
}

/**
 * The least configuration that brings each configurable component to TARGET: origin instances (the
 * account's vCPU cap may forbid them: accountCapExceeded), counters per key, file shards per
 * account, and the feed window (up to MAX_FEED_WINDOW_SECONDS: a longer one delays the books, not
 * the money).
 */
export function configurationFor(measured: Measured, rates: Record<TrafficKind, number>, busiestShare: number): Configuration {
  // Every file call of the mix names one file, and a file's id names its shard; the account's own
  // shards follow the same setting.
  const shards = Math.max(
    accountShardsFor(measured, rates, busiestShare, TARGET),
    Math.min(MAX_FILE_SHARDS, Math.max(1, Math.ceil(busiestShardCalls(measured, rates, busiestShare, "file") / (TARGET * PUBLISHED_LIMITS.durableObjectRequestsPerSecond)))),
  );
  // A longer window first (it delays the books, not the money), then more queues.
  const perQueue = TARGET * PUBLISHED_LIMITS.queueMessagesPerSecond;
  let feedWindowSeconds = DEFAULT_FEED_WINDOW_SECONDS;
  while (feedWindowSeconds < MAX_FEED_WINDOW_SECONDS && feedMessages(rates, feedWindowSeconds, shards) > perQueue) feedWindowSeconds++;
  const feedQueues = Math.min(FEED_QUEUE_BINDINGS.length, Math.max(1, Math.ceil(feedMessages(rates, feedWindowSeconds, shards) / perQueue)));
  return {
    originInstances: Math.ceil(originVcpu(measured, rates) / (PUBLISHED_LIMITS.containerInstanceVcpu * TARGET)),
    keyWindowCounters: Math.min(MAX_COUNTERS_PER_KEY, Math.max(1, Math.ceil(busiestKeyRate(rates, busiestShare) / (TARGET * PUBLISHED_LIMITS.durableObjectRequestsPerSecond)))),
    fileShardsPerAccount: shards,
    feedWindowSeconds,
    feedQueues,
  };
}

export function components(design: Design, measured: Measured, config: Configuration, rates: Record<TrafficKind, number>, busiestShare: number): Component[] {
  const statements = (kind: TrafficKind) => measured.statements[STATEMENTS_OF[kind]];
  const sharded = design === "per-account shards (as built)";
  const feed = sharded ? feedMessages(rates, config.feedWindowSeconds, config.fileShardsPerAccount) : 0;
  const needed = configurationFor(measured, rates, busiestShare);
  const d1PerSecond = sharded
    ? sum(rates, (k) => statements(k).reads + statements(k).writes) + (feed / FEED_MESSAGES_PER_BATCH) * measured.statements[FEED_BATCH].writes
    : sum(rates, (k) => STATEMENTS_BEFORE_THE_MOVE[k]);

  const vcpu = originVcpu(measured, rates);
  const vcpuCapacity = config.originInstances * PUBLISHED_LIMITS.containerInstanceVcpu;
  const queue = sum(rates, (k) => QUEUE_MESSAGES[k]);
  const busiestKey = busiestKeyRate(rates, busiestShare) / config.keyWindowCounters;
  const list: Component[] = [
    {
      name: "D1 (shared database)",
      load: `${d1PerSecond.toFixed(0)} statements/s`,
      limit: `${PUBLISHED_LIMITS.d1StatementsPerSecond}/s`,
      utilisation: d1PerSecond / PUBLISHED_LIMITS.d1StatementsPerSecond,
      remedy: sharded ? `a longer feed window (fewer, fuller batches: LEDGER_FEED_DELAY_MS), or read replicas for key lookups` : "none by configuration: move account state to per-account shards",
    },
    {
      name: "busiest key's rate window",
      load: `${busiestKey.toFixed(0)} requests/s a counter`,
      limit: `${config.keyWindowCounters} x ${PUBLISHED_LIMITS.durableObjectRequestsPerSecond}/s`,
      utilisation: busiestKey / PUBLISHED_LIMITS.durableObjectRequestsPerSecond,
      remedy: `RATE_WINDOW_COUNTERS_PER_KEY = ${needed.keyWindowCounters} for ${TARGET * 100}%`,
    },
    {
      name: "origin containers",
      load: `${vcpu.toFixed(1)} vCPU`,
      limit: `${config.originInstances} x ${PUBLISHED_LIMITS.containerInstanceVcpu} vCPU`,
      utilisation: vcpu / vcpuCapacity,
      remedy: `instances: ${needed.originInstances} for ${TARGET * 100}% (account cap ${PUBLISHED_LIMITS.accountVcpu} vCPU = ${PUBLISHED_LIMITS.accountVcpu / PUBLISHED_LIMITS.containerInstanceVcpu} instances)`,
    },
    {
      name: "job queue",
      load: `${queue.toFixed(0)} messages/s`,
      limit: `${PUBLISHED_LIMITS.queueMessagesPerSecond}/s`,
      utilisation: queue / PUBLISHED_LIMITS.queueMessagesPerSecond,
      remedy: "more queues, by account",
    },
  ];
  if (sharded) {
    list.push({
      name: `busiest ledger feed queue (1 of ${config.feedQueues})`,
      load: `${(feed / config.feedQueues).toFixed(0)} messages/s`,
      limit: `${PUBLISHED_LIMITS.queueMessagesPerSecond}/s`,
      utilisation: feed / config.feedQueues / PUBLISHED_LIMITS.queueMessagesPerSecond,
      remedy: `LEDGER_FEED_DELAY_MS = ${needed.feedWindowSeconds * 1000} (a longer feed window) and ${needed.feedQueues} feed queue(s) (LEDGER_FEED_1 and on: accounts spread over them by id)`,
    });
    const shardRow = (name: string, calls: number, remedy: string): Component => ({
      name,
      load: `${calls.toFixed(0)} calls/s`,
      limit: `${PUBLISHED_LIMITS.durableObjectRequestsPerSecond}/s`,
      utilisation: calls / PUBLISHED_LIMITS.durableObjectRequestsPerSecond,
      remedy,
    });
    list.splice(
      1,
      0,
      shardRow(
        `busiest account's first shard (of ${config.fileShardsPerAccount})`,
        busiestFirstShardCalls(measured, rates, busiestShare, config.fileShardsPerAccount),
        accountShardsFor(measured, rates, busiestShare, TARGET) < MAX_FILE_SHARDS
          ? `FILE_SHARDS_PER_ACCOUNT = ${accountShardsFor(measured, rates, busiestShare, TARGET)} for ${TARGET * 100}% (the account's shards follow its file shards)`
          : `none by configuration: past ${MAX_FILE_SHARDS} shards an account`,
      ),
      ...(config.fileShardsPerAccount > 1
        ? [shardRow(`busiest account's branch (1 of ${config.fileShardsPerAccount - 1})`, busiestBranchCalls(rates, busiestShare, config.fileShardsPerAccount), "FILE_SHARDS_PER_ACCOUNT")]
        : []),
      shardRow(`busiest file shard (1 of ${config.fileShardsPerAccount})`, busiestShardCalls(measured, rates, busiestShare, "file") / config.fileShardsPerAccount, `FILE_SHARDS_PER_ACCOUNT = ${needed.fileShardsPerAccount} for ${TARGET * 100}%`),
    );
  }
  return list;
}

/** The account vCPU cap is a ceiling no instance count passes. */
export function accountCapExceeded(measured: Measured, rates: Record<TrafficKind, number>): boolean {
  return originVcpu(measured, rates) / TARGET > PUBLISHED_LIMITS.accountVcpu;
}
