// A native tool (heif-convert, ffmpeg) run as a child process for one call: no shell, no stdin, at
// most a few kB of its messages kept (a failure's message, never a stream to buffer), and killed
// (SIGKILL) when its time is up, which stops every thread it runs, as terminating a worker would not.
import { spawn } from "node:child_process";

const MAX_MESSAGE_BYTES = 4096;

export interface ToolExit {
  /** The exit code; null when it was killed. */
  code: number | null;
  /** Whether it was killed at `timeoutMs`. */
  timedOut: boolean;
  /** The start of what it wrote to stderr. */
  message: string;
}

/** Runs `command` to its end or for `timeoutMs`; rejects with the spawn error when it cannot start (ENOENT: not installed). */
export function runToolProcess(command: string, args: string[], timeoutMs: number): Promise<ToolExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let message = "";
    child.stderr.on("data", (data: Buffer) => {
      if (message.length < MAX_MESSAGE_BYTES) message += data.toString("utf8").slice(0, MAX_MESSAGE_BYTES - message.length);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, Math.max(0, timeoutMs));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, message });
    });
  });
}
