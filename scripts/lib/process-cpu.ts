import { readdirSync, readFileSync } from "node:fs";

/** CPU seconds (user + system) of the workerd processes started by the scripts/dev.ts that serves `edgePort`. */
export function edgeCpuSeconds(edgePort: number): number {
  const ticksPerSecond = 100;
  const processes = new Map<string, { ppid: string; cmd: string; cpu: number }>();
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      // After "pid (comm) " come state, ppid, ...; utime and stime are stat fields 14 and 15.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      processes.set(pid, { ppid: fields[1]!, cmd, cpu: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond });
    } catch {
      // the process ended while being read
    }
  }
  const devPid = [...processes].find(([, p]) => p.cmd.includes("scripts/dev.ts") && p.cmd.includes(String(edgePort)))?.[0];
  const descendsFromDev = (pid: string): boolean => {
    for (let at = processes.get(pid)?.ppid; at && at !== "0"; at = processes.get(at)?.ppid) if (at === devPid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, p] of processes) if (p.cmd.includes("workerd") && descendsFromDev(pid)) total += p.cpu;
  return total;
}
