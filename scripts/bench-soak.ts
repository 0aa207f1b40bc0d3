// `npm run bench:soak [-- --minutes 5 --concurrency 4]`: the whole service under a mixed workload
// with scheduled faults (origin SIGKILL and SIGTERM restarts; a proxy that delays, resets,
// corrupts and truncates origin replies; every async job's queue message delivered twice), then
// the books. Prints the figures and exits 1 when any zero-target is not zero. Loopback only.
import { parseArgs } from "node:util";
import { runSoak } from "./soak/run-soak.ts";

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "5" },
    concurrency: { type: "string", default: "4" },
    json: { type: "boolean", default: false },
  },
});
const minutes = Number(args.minutes);
const concurrency = Number(args.concurrency);
if (!(minutes > 0 && minutes <= 60) || !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 16)) {
  console.error("bench:soak: --minutes must be in (0, 60], --concurrency an integer 1..16");
  process.exit(2);
}

const figures = await runSoak({
  durationMs: minutes * 60_000,
  concurrency,
  drainMs: 120_000,
  jobDeadlineMs: 180_000,
  log: (line) => console.error(`[soak +${Math.round(performance.now() / 1000)} s] ${line}`),
});

const { details, ...printed } = figures;
if (args.json) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  console.log(JSON.stringify(printed, null, 2));
  if (figures.failures.length > 0) console.log(JSON.stringify(details, null, 2));
}
console.log(figures.failures.length === 0 ? "soak: every zero-target held" : `soak: ${figures.failures.length} zero-target(s) broken`);
process.exit(figures.failures.length === 0 ? 0 : 1);
