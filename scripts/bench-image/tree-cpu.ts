// CPU seconds spent by a process and everything under it (Linux /proc): for the service pair, the
// edge, the origin and the tools the origin runs (heif-convert, ffmpeg), whose time joins their
// parent's once they are reaped. On a machine shared with other work, wall time swings with the
// load; CPU seconds per request swing far less.
import { readdirSync, readFileSync } from "node:fs";

// USER_HZ: the unit of /proc's times, 100 on every Linux the project runs on.
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  parent: number;
  ticks: number;
}

function processTimes(pid: string): ProcessTimes | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // Fields after the command's closing parenthesis: state, ppid, ...; utime, stime, cutime and cstime are the 12th to 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
}

/** User and system time of `root` and its descendants, living and reaped, in seconds; null off Linux. */
export function treeCpuSeconds(root: number): number | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const all = new Map<number, ProcessTimes>();
  for (const pid of pids) {
    const times = processTimes(pid);
    if (times) all.set(Number(pid), times);
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 64; at = all.get(at)?.parent, hops++) if (at === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, times] of all) if (inTree(pid)) ticks += times.ticks;
  return ticks / TICKS_PER_SECOND;
}
