// Peak resident memory of processes, read from outside through /proc (Linux): the process
// listening on a port is found from its socket inode, and VmHWM is the kernel's own record
// of the highest RSS the process ever reached.
import fs from "node:fs";

function listeningSocketInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [, local, , state, , , , , , inode] = fields;
      // State 0A is LISTEN.
      if (local?.endsWith(`:${hexPort}`) && state === "0A" && inode !== undefined) inodes.add(inode);
    }
  }
  return inodes;
}

function processIds(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** The process that listens on the port, among those this user may inspect. */
export function pidListeningOn(port: number): number {
  const inodes = listeningSocketInodes(port);
  for (const pid of processIds()) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const socket = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (socket !== null && inodes.has(socket[1]!)) return pid;
      } catch {
        // the descriptor closed while we looked
      }
    }
  }
  throw new Error(`no inspectable process listens on port ${port}`);
}

function statusField(pid: number, field: string): number {
  const value = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  if (value === null) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(value[1]) * 1024;
}

/** The highest resident set size the process has reached since it started, in bytes. */
export function peakRssBytes(pid: number): number {
  return statusField(pid, "VmHWM");
}

function processGroupOf(pid: number): number {
  // Fields after the parenthesised command name: state, ppid, pgrp.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

export interface ProcessPeak {
  pid: number;
  command: string;
  peakRssBytes: number;
}

/** Every process in the same process group as pid (a service started detached, and what it spawned). */
export function processGroupPeaks(pid: number): ProcessPeak[] {
  const group = processGroupOf(pid);
  const peaks: ProcessPeak[] = [];
  for (const member of processIds()) {
    try {
      if (processGroupOf(member) !== group) continue;
      const command = fs.readFileSync(`/proc/${member}/comm`, "utf8").trim();
      peaks.push({ pid: member, command, peakRssBytes: peakRssBytes(member) });
    } catch {
      // exited while we looked, or a kernel thread without memory figures
    }
  }
  return peaks;
}
