// The fault schedule, as fractions of the run so a 5-minute soak and the 1-minute CI run go
// through the same faults in the same order. The first tenth is warm-up (queue messages are
// delivered once; scripts/soak/rss-flatness.ts measures each origin's own warm-up from its start);
// every fault ends before the last tenth.
import type { ProxyFault } from "./fault-proxy.ts";
import type { SoakService } from "./service.ts";

type PlannedFault =
  | { at: number; origin: "SIGKILL" | "SIGTERM" }
  /** `length`: the fraction of the run a proxy fault lasts; an origin restart lasts as long as it takes. */
  | { at: number; proxy: ProxyFault; length: number };

export type FaultKind = `origin ${"SIGKILL" | "SIGTERM"} + restart` | `proxy ${ProxyFault}`;

export const WARM_UP_FRACTION = 0.1;

// The origin restarts come first and the proxy faults after them, so the last origin process
// serves the whole second half of the run, proxy faults included: memory is judged on one process
// over minutes, not over the 70 to 130 s that restarts spread through the run allowed (where the
// warm and end windows of a 5-minute run were 40 s apart and the verdict swung between +6% and
// +16% from run to run).
const PLAN: PlannedFault[] = [
  { at: 0.12, origin: "SIGKILL" },
  { at: 0.24, origin: "SIGTERM" },
  { at: 0.36, origin: "SIGKILL" },
  { at: 0.44, proxy: "delay", length: 0.08 },
  { at: 0.56, proxy: "reset", length: 0.08 },
  { at: 0.68, proxy: "corrupt", length: 0.08 },
  { at: 0.8, proxy: "truncate", length: 0.08 },
];

export interface FaultWindow {
  kind: FaultKind;
  start: number;
  end: number;
}

const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

/** Runs the plan over [startedAt, startedAt + durationMs]; resolves with the windows as they happened. */
export async function runFaultSchedule(service: SoakService, startedAt: number, durationMs: number): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = [];
  for (const fault of PLAN) {
    await sleepUntil(startedAt + fault.at * durationMs);
    const start = Date.now();
    if ("origin" in fault) {
      await service.origin.restart(fault.origin);
      windows.push({ kind: `origin ${fault.origin} + restart`, start, end: Date.now() });
    } else {
      service.proxy.setFault(fault.proxy);
      await sleepUntil(start + fault.length * durationMs);
      service.proxy.setFault(null);
      windows.push({ kind: `proxy ${fault.proxy}`, start, end: Date.now() });
    }
  }
  return windows;
}
