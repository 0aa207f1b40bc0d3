// npm run bench:capacity: the service's ceiling from costs measured in this run (issue #44).
//   - statements per request kind: workers/db/shared-statements.test.ts runs first and pins each
//     kind's count to workers/db/statement-budgets.ts, so the budgets read here are this tree's;
//   - origin CPU per operation, on the engines, in this process (scripts/bench-capacity/origin-costs.ts);
//   - edge CPU per transform hit and miss, on a real pair (scripts/bench-capacity/edge-costs.ts);
// held against Cloudflare's published limits (scripts/bench-capacity/published-limits.ts) for the
// traffic mix of scripts/bench-capacity/traffic-mix.ts, at x1, x10 and x100.
// Env: BENCH_ROUNDS (origin runs per operation, 3), BENCH_CAPACITY_HITS (200), BENCH_CAPACITY_MISSES (10).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { sharedStatementBudgets } from "../workers/db/statement-budgets.ts";
import { FEED_QUEUE_BINDINGS } from "../workers/billing/feed-queues.ts";
import { measureEdgeCosts } from "./bench-capacity/edge-costs.ts";
import { fileShardsPerAccount } from "../workers/files/file-shard-index.ts";
import { countersPerKey } from "../workers/rate-limit/fixed-window.ts";
import { accountCapExceeded, components, configurationFor, DEFAULT_FEED_WINDOW_SECONDS, STATEMENTS_OF, type Configuration, type Design, type Measured } from "./bench-capacity/model.ts";
import { measureOriginCosts } from "./bench-capacity/origin-costs.ts";
import { PUBLISHED_LIMITS } from "./bench-capacity/published-limits.ts";
import { busiestAccountShare, TRAFFIC_MIX, type TrafficKind } from "./bench-capacity/traffic-mix.ts";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const pct = (u: number) => `${(u * 100).toFixed(u < 0.1 ? 1 : 0)}%`;

console.log("1. Statements and shard calls per request kind (measured: workers/db/shared-statements.test.ts, run now)");
const counted = spawnSync("npx", ["vitest", "run", "workers/db/shared-statements.test.ts"], { encoding: "utf8" });
if (counted.status !== 0) {
  console.error(counted.stdout.slice(-4000));
  throw new Error("the statement counts no longer match workers/db/statement-budgets.ts: the model would be built on stale figures");
}
for (const [kind, kindName] of Object.entries(STATEMENTS_OF)) {
  const s = sharedStatementBudgets[kindName];
  console.log(
    `   ${kind.padEnd(14)} ${kindName.padEnd(42)} ${s.reads} reads + ${s.writes} writes (${s.keyIndex} on the key index); shard calls: ${s.shardCalls.account} account, ${s.shardCalls.file} file`,
  );
}

console.log(`\n2. Origin CPU per operation (measured in this process, median of ${rounds})`);
const origin = await measureOriginCosts(rounds);
for (const cost of origin) console.log(`   ${cost.name.padEnd(46)} ${cost.cpuMs.toFixed(0).padStart(7)} ms CPU   runs ${cost.runs.map((r) => r.toFixed(0)).join(", ")}`);

console.log("\n3. Edge CPU per request (measured on a real pair's workerd; includes wrangler dev's proxy, so an upper bound)");
const edge = await measureEdgeCosts({ hits: Number(process.env.BENCH_CAPACITY_HITS ?? 200), misses: Number(process.env.BENCH_CAPACITY_MISSES ?? 10) });
console.log(`   transform hit  ${edge.hitCpuMs.toFixed(2)} ms CPU (${edge.hits} hits)`);
console.log(`   transform miss ${edge.missCpuMs.toFixed(1)} ms CPU (${edge.misses} misses of a 1 MP JPEG, computed at the edge)`);
console.log(`   Workers limit ${PUBLISHED_LIMITS.workerCpuMsPerRequest} ms CPU per request (published): hits and misses scale out across isolates`);

const describe = (c: Configuration) =>
  `${c.originInstances} origin instances, ${c.keyWindowCounters} counter(s) a key, ${c.fileShardsPerAccount} file shard(s) an account, a ${c.feedWindowSeconds} s feed window, ${c.feedQueues} feed queue(s)`;
const wrangler = readFileSync("wrangler.toml", "utf8");
const configured: Configuration = {
  originInstances: Number(/^max_instances\s*=\s*(\d+)/m.exec(wrangler)?.[1]),
  keyWindowCounters: countersPerKey(/^RATE_WINDOW_COUNTERS_PER_KEY\s*=\s*"(\d+)"/m.exec(wrangler)?.[1]),
  fileShardsPerAccount: fileShardsPerAccount(/^FILE_SHARDS_PER_ACCOUNT\s*=\s*"(\d+)"/m.exec(wrangler)?.[1]),
  feedWindowSeconds: DEFAULT_FEED_WINDOW_SECONDS,
  feedQueues: FEED_QUEUE_BINDINGS.filter((binding) => new RegExp(`^binding\\s*=\\s*"${binding}"`, "m").test(wrangler)).length,
};
const measured: Measured = {
  statements: sharedStatementBudgets,
  originCpuMs: { transformMiss: origin[0]!.cpuMs, optimize: origin[1]!.cpuMs, pdfCompress: origin[2]!.cpuMs, xlsx: origin[3]!.cpuMs },
};
const share = busiestAccountShare(TRAFFIC_MIX.accounts, TRAFFIC_MIX.zipfExponent);
console.log(`\n4. The model. Published limits: ${JSON.stringify(PUBLISHED_LIMITS)}`);
console.log(`   Traffic: ${JSON.stringify(TRAFFIC_MIX.perSecond)} per second over ${TRAFFIC_MIX.accounts} accounts, Zipf s=${TRAFFIC_MIX.zipfExponent}: the busiest account has ${pct(share)} of it`);
console.log(
  `   Configured (wrangler.toml): ${describe(configured)}. Misses are all costed as origin work (the larger sources are).`,
);


/**
 * The goal at x1 (every component at 50% or less) and x10 (the same, by configuration alone), each
 * under the least configuration that sizes the configurable components for it: the origin pool
 * counts as fitting when the instances it needs are within the account's vCPU cap.
 */
function goalVerdict(factor: number, config: Configuration, list: ReturnType<typeof components>, rates: Record<TrafficKind, number>): string {
  const over = list.filter((c) => c.utilisation > 0.5 && c.name !== "origin containers").map((c) => `${c.name} ${pct(c.utilisation)}`);
  if (accountCapExceeded(measured, rates)) over.push(`origin containers (past the account's ${PUBLISHED_LIMITS.accountVcpu} vCPU at 50%)`);
  const goal = factor === 1 ? "the mix with every component at 50% or less" : "x10 with configuration changes only";
  return `${goal} (${describe(config)}): ${over.length === 0 ? "met" : `MISSED (${over.join("; ")})`}`;
}

const scaled = (factor: number) => Object.fromEntries(Object.entries(TRAFFIC_MIX.perSecond).map(([k, v]) => [k, v * factor])) as Record<TrafficKind, number>;
const verdicts: string[] = [];
for (const design of ["one D1 (before the move)", "per-account shards (as built)"] satisfies Design[]) {
  console.log(`\n   ${design}`);
  for (const factor of [1, 10, 100]) {
    const list = components(design, measured, configured, scaled(factor), share);
    console.log(`   x${factor}, as configured`);
    for (const c of list) console.log(`     ${c.name.padEnd(40)} ${c.load.padStart(28)} of ${c.limit.padEnd(16)} ${pct(c.utilisation).padStart(7)}`);
    const first = list.filter((c) => c.utilisation > 1).sort((a, b) => b.utilisation - a.utilisation)[0];
    if (factor > 1) console.log(`     first to saturate: ${first ? `${first.name} (${pct(first.utilisation)}); moved by: ${first.remedy}` : "none"}`);
    if (design !== "per-account shards (as built)" || factor > 10) continue;
    const needed = configurationFor(measured, scaled(factor), share);
    const sized = components(design, measured, needed, scaled(factor), share);
    console.log(`   x${factor}, configured for it (${describe(needed)})`);
    for (const c of sized) console.log(`     ${c.name.padEnd(40)} ${c.load.padStart(28)} of ${c.limit.padEnd(16)} ${pct(c.utilisation).padStart(7)}`);
    verdicts.push(goalVerdict(factor, needed, sized, scaled(factor)));
  }
}
console.log(
  "\nGoals (the shard design as built, from this tree's measured statements and shard calls; the one-D1 design from the statements recorded before the move, scripts/bench-capacity/before-the-move.ts):",
);
for (const v of verdicts) console.log(`   ${v}`);
