import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const EXIT_WITH_PARENT = fileURLToPath(new URL("./exit-with-parent.ts", import.meta.url));

export interface Service {
  name: string;
  child: ChildProcess;
}

/**
 * Starts a child in its own process group so that stopping it also stops what it spawned, through
 * exit-with-parent.ts so that the group also ends when this process dies without stopping it.
 */
export function startService(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Service {
  const child = spawn(process.execPath, [EXIT_WITH_PARENT, command, ...args], { env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  return { name, child };
}

export function stopService(service: Service): Promise<void> {
  return new Promise((resolve) => {
    if (service.child.exitCode !== null || service.child.pid === undefined) return resolve();
    service.child.once("exit", () => resolve());
    try {
      process.kill(-service.child.pid, "SIGTERM");
    } catch {
      resolve();
    }
    setTimeout(() => {
      try {
        process.kill(-service.child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, 5_000).unref();
  });
}

export async function waitForHttp(url: string, timeoutMs: number, services: Service[]): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = services.find((s) => s.child.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited with code ${dead.child.exitCode} while starting`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.status < 500 || res.status === 503) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
