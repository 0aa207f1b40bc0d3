// The capacity model: measured per-request costs times the traffic mix, held against published
// limits, for the design as built (every account's state in one D1) and the per-account shard
// design (account state in one Durable Object per account; D1 keeps the key index and the ledger
// report the shards feed in queue batches).
import type { RequestKind, StatementBudget } from "../../workers/db/statement-budgets.ts";
import { PUBLISHED_LIMITS } from "./published-limits.ts";
import { activeAccounts, TRAFFIC_MIX, type TrafficKind } from "./traffic-mix.ts";

export type Design = "one D1 (as built)" | "per-account shards";

export interface Measured {
  statements: Record<RequestKind, StatementBudget>;
  /** Origin CPU ms per request of each kind that reaches the origin. */
  originCpuMs: Record<Exclude<TrafficKind, "transformHit">, number>;
  originInstances: number;
}

/** Which counted request stands for each kind of traffic: PDF compress is modelled as a job, the worst case. */
export const STATEMENTS_OF: Record<TrafficKind, RequestKind> = {
  transformHit: "transform hit",
  transformMiss: "transform miss (file)",
  optimize: "optimize",
  pdfCompress: "pdf compress async, its job and webhook",
  xlsx: "xlsx generate",
};

// The shard design's calls per request: one after the work (the charge, and for a transform the
// derivative's row with it); the balance check before the work is answered from the isolate's
// recent sight of the balance (workers/billing/balance-seen.ts) for a funded account. A miss first
// looks in R2 under its identity's key and asks the shard only when an object is there (served
// from R2: one call, the lookup; made anew: one call, the keep). A job adds its start, its end and
// its webhook's record.
const SHARD_CALLS: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 1, optimize: 1, pdfCompress: 4, xlsx: 1 };
// Requests that charge the account: each is a ledger row its shard feeds to the shared report.
const CHARGED: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 1, optimize: 1, pdfCompress: 1, xlsx: 1 };
// A shard feeds its rows and derivatives a second after a charge (workers/shards/account-shard.ts),
// one message for all of that second's; the consumer writes a batch of 100 messages in the
// statements counted for it.
const FEED_WINDOW_SECONDS = 1;
const FEED_MESSAGES_PER_BATCH = 100;
const FEED_BATCH: RequestKind = "ledger feed, a batch of 100 transform misses";
// Queue messages per request: a job's own message and its webhook's.
const QUEUE_MESSAGES: Record<TrafficKind, number> = { transformHit: 0, transformMiss: 0, optimize: 0, pdfCompress: 2, xlsx: 0 };
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

/** Feed messages a second: one per account that charged in a feed window. */
function feedMessages(rates: Record<TrafficKind, number>): number {
  return activeAccounts(TRAFFIC_MIX.accounts, TRAFFIC_MIX.zipfExponent, sum(rates, (k) => CHARGED[k]), FEED_WINDOW_SECONDS) / FEED_WINDOW_SECONDS;
}

export function components(design: Design, measured: Measured, rates: Record<TrafficKind, number>, busiestShare: number): Component[] {
  const statements = (kind: TrafficKind) => measured.statements[STATEMENTS_OF[kind]];
  const feed = design === "per-account shards" ? feedMessages(rates) : 0;
  const d1PerSecond =
    design === "one D1 (as built)"
      ? sum(rates, (k) => statements(k).reads + statements(k).writes)
      : sum(rates, (k) => statements(k).keyIndex) + (feed / FEED_MESSAGES_PER_BATCH) * measured.statements[FEED_BATCH].writes;
  const busiestShard =
    design === "one D1 (as built)" ? 0 : busiestShare * sum(rates, (k) => (statements(k).reads + statements(k).writes - statements(k).keyIndex > 0 ? SHARD_CALLS[k] : 0));
  const vcpu = originVcpu(measured, rates);
  const vcpuCapacity = measured.originInstances * PUBLISHED_LIMITS.containerInstanceVcpu;
  const queue = sum(rates, (k) => QUEUE_MESSAGES[k]);
  const busiestKey = busiestShare * sum(rates, (k) => RATE_COUNTED[k]);
  const list: Component[] = [
    {
      name: "D1 (shared database)",
      load: `${d1PerSecond.toFixed(0)} statements/s`,
      limit: `${PUBLISHED_LIMITS.d1StatementsPerSecond}/s`,
      utilisation: d1PerSecond / PUBLISHED_LIMITS.d1StatementsPerSecond,
      remedy: design === "one D1 (as built)" ? "none by configuration: move account state to per-account shards" : "a longer feed window (fewer, fuller batches), or read replicas for key lookups",
    },
    {
      name: "busiest key's rate window",
      load: `${busiestKey.toFixed(0)} requests/s`,
      limit: `${PUBLISHED_LIMITS.durableObjectRequestsPerSecond}/s`,
      utilisation: busiestKey / PUBLISHED_LIMITS.durableObjectRequestsPerSecond,
      remedy: "more keys for that account (one window each), or the Rate Limiting binding",
    },
    {
      name: "origin containers",
      load: `${vcpu.toFixed(1)} vCPU`,
      limit: `${measured.originInstances} x ${PUBLISHED_LIMITS.containerInstanceVcpu} vCPU`,
      utilisation: vcpu / vcpuCapacity,
      remedy: `instances: ${Math.ceil(vcpu / (PUBLISHED_LIMITS.containerInstanceVcpu * 0.5))} for 50% (account cap ${PUBLISHED_LIMITS.accountVcpu} vCPU = ${PUBLISHED_LIMITS.accountVcpu / PUBLISHED_LIMITS.containerInstanceVcpu} instances)`,
    },
    {
      name: "job queue",
      load: `${queue.toFixed(0)} messages/s`,
      limit: `${PUBLISHED_LIMITS.queueMessagesPerSecond}/s`,
      utilisation: queue / PUBLISHED_LIMITS.queueMessagesPerSecond,
      remedy: "more queues, by account",
    },
  ];
  if (design === "per-account shards") {
    list.push({
      name: "ledger feed queue",
      load: `${feed.toFixed(0)} messages/s`,
      limit: `${PUBLISHED_LIMITS.queueMessagesPerSecond}/s`,
      utilisation: feed / PUBLISHED_LIMITS.queueMessagesPerSecond,
      remedy: "a longer feed window, or one feed queue per group of accounts",
    });
    list.splice(1, 0, {
      name: "busiest account's shard",
      load: `${busiestShard.toFixed(0)} calls/s`,
      limit: `${PUBLISHED_LIMITS.durableObjectRequestsPerSecond}/s`,
      utilisation: busiestShard / PUBLISHED_LIMITS.durableObjectRequestsPerSecond,
      remedy: "split that account's shard (its derivatives by file)",
    });
  }
  return list;
}

/** The account vCPU cap is a ceiling no instance count passes. */
export function accountCapExceeded(measured: Measured, rates: Record<TrafficKind, number>): boolean {
  return originVcpu(measured, rates) / 0.5 > PUBLISHED_LIMITS.accountVcpu;
}
