// `node scripts/lib/exit-with-parent.ts <command> [args...]`: runs the command in this process's
// group until it ends, or until the process that started this one dies, whatever killed it
// (SIGKILL included). `npm start` starts each service through it, in a group of its own so that
// stopping it stops what it spawned (wrangler's workerd): such a group outlives its parent unless
// something watches the parent. The parent holds this process's stdin; its end is the parent's.
import { spawn } from "node:child_process";

const STOP_GRACE_MS = 5_000;
const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error("usage: node scripts/lib/exit-with-parent.ts <command> [args...]");
  process.exit(2);
}

const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
let orphaned = false;

function signalGroup(signal: NodeJS.Signals): void {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // the group is already gone
  }
}

// A stop sent to the group (the parent's stopService) reaches the command as well: wait for it to end.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => undefined);
child.once("error", (error) => {
  console.error(`could not start ${command}: ${error.message}`);
  process.exit(1);
});
child.once("exit", (code, signal) => {
  // Whatever the command left in the group goes with it when nobody is left to stop it.
  if (orphaned) signalGroup("SIGKILL");
  process.exit(code ?? (signal === null ? 1 : 128));
});
process.stdin.once("close", () => {
  orphaned = true;
  signalGroup("SIGTERM");
  setTimeout(() => signalGroup("SIGKILL"), STOP_GRACE_MS);
});
process.stdin.resume();
