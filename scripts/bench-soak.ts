// `npm run bench:soak [-- --part faults|hostile|all --minutes 5 --concurrency 4 --hostile-blocks 8 --hostile-block-seconds 30 --shards-per-account N]`
// Two runs of the whole service, each on fresh state, loopback only:
//   faults:  a mixed workload with scheduled faults (origin SIGKILL and SIGTERM restarts; a proxy
//            that delays, resets, corrupts and truncates origin replies; every async job's queue
//            message delivered twice), then the books;
//   hostile: the same ordinary workload while, in alternate blocks, a second account sends many-
//            page PDFs, Flate bombs, truncated animations and a bad sheet name (scripts/soak/
//            hostile.ts): ordinary p99 with it against without it, hangs, charges for refused work.
// Prints the figures and exits 1 when any target is missed.
import { parseArgs } from "node:util";
import { MAX_FILE_SHARDS } from "../workers/files/file-shard-index.ts";
import { runHostileSoak } from "./soak/hostile.ts";
import { runSoak } from "./soak/run-soak.ts";

const { values: args } = parseArgs({
  options: {
    part: { type: "string", default: "all" },
    minutes: { type: "string", default: "5" },
    concurrency: { type: "string", default: "4" },
    "hostile-blocks": { type: "string", default: "8" },
    "hostile-block-seconds": { type: "string", default: "30" },
    "hostile-concurrency": { type: "string", default: "3" },
    "shards-per-account": { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const minutes = Number(args.minutes);
const concurrency = Number(args.concurrency);
const blocks = Number(args["hostile-blocks"]);
const blockSeconds = Number(args["hostile-block-seconds"]);
const hostileConcurrency = Number(args["hostile-concurrency"]);
const part = args.part;
const shardsPerAccount = args["shards-per-account"] === undefined ? undefined : Number(args["shards-per-account"]);
const intIn = (n: number, lo: number, hi: number) => Number.isInteger(n) && n >= lo && n <= hi;
if (
  !["faults", "hostile", "all"].includes(part) ||
  !(minutes > 0 && minutes <= 60) ||
  !intIn(concurrency, 1, 16) ||
  !intIn(blocks, 2, 40) ||
  blocks % 2 !== 0 ||
  !intIn(blockSeconds, 5, 600) ||
  !intIn(hostileConcurrency, 1, 8) ||
  (shardsPerAccount !== undefined && !intIn(shardsPerAccount, 1, MAX_FILE_SHARDS))
) {
  console.error(
    "bench:soak: --part faults|hostile|all, --minutes in (0, 60], --concurrency 1..16, --hostile-blocks an even 2..40, --hostile-block-seconds 5..600, --hostile-concurrency 1..8, --shards-per-account 1..62",
  );
  process.exit(2);
}
const log = (line: string) => console.error(`[soak +${Math.round(performance.now() / 1000)} s] ${line}`);
let failed = 0;

if (part === "faults" || part === "all") {
  const figures = await runSoak({ durationMs: minutes * 60_000, concurrency, drainMs: 120_000, jobDeadlineMs: 180_000, shardsPerAccount, log });
  const { details, ...printed } = figures;
  if (args.json) {
    console.log(JSON.stringify(figures, null, 2));
  } else {
    console.log(JSON.stringify(printed, null, 2));
    if (figures.failures.length > 0) console.log(JSON.stringify(details, null, 2));
  }
  console.log(figures.failures.length === 0 ? "soak (faults): every zero-target held" : `soak (faults): ${figures.failures.length} zero-target(s) broken`);
  failed += figures.failures.length;
}

if (part === "hostile" || part === "all") {
  const figures = await runHostileSoak({ blockMs: blockSeconds * 1000, blocks, concurrency, hostileConcurrency, shardsPerAccount, log });
  console.log(JSON.stringify(figures, null, 2));
  console.log(
    `soak (hostile): ordinary p99 ${figures.ordinary.with.p99Ms} ms with the hostile account, ${figures.ordinary.without.p99Ms} ms without (${figures.ordinary.p99Ratio}x, target <= 2x); ` +
      `hangs ${figures.hangs.length}; charges for refused work ${figures.charges.chargedRefused.length} of ${figures.charges.refusedRequests} refused requests`,
  );
  console.log(figures.failures.length === 0 ? "soak (hostile): every target held" : `soak (hostile): ${figures.failures.length} target(s) missed`);
  failed += figures.failures.length;
}
process.exit(failed === 0 ? 0 : 1);
