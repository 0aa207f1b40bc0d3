import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { freeConsecutivePorts, freePort } from "../../scripts/lib/free-port.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ServicePair {
  edgeUrl: string;
  originUrl: string;
  apiKey: string;
  /** The development key's public id, which transform URLs name. */
  keyId: string;
  accountId: string;
  persistTo: string;
  /** Everything `npm start` printed until it said it was running. */
  startLog: string;
  /** The `npm start` process, leader of its own process group. */
  pid: number;
  stop(): Promise<void>;
}

/** Starts edge + origin exactly as `npm start` does, on its own state directory and (by default) ports free right now. */
export async function startServicePair(
  requested?: { edge: number; origin: number },
  timeoutMs = 150_000,
  /** More `npm start` flags, such as `--origins 3`. */
  extraArgs: string[] = [],
  /** The state to start on (removed at stop): an empty directory unless a test made one. */
  persistTo = mkdtempSync(join(tmpdir(), "pixelpress-e2e-")),
): Promise<ServicePair> {
  const origins = extraArgs.includes("--origins") ? Number(extraArgs[extraArgs.indexOf("--origins") + 1]) : 1;
  const ports = requested ?? { edge: await freePort(), origin: await freeConsecutivePorts(origins) };
  const child: ChildProcess = spawn(
    process.execPath,
    ["scripts/dev.ts", "--port", String(ports.edge), "--origin-port", String(ports.origin), "--persist-to", persistTo, "--allow-loopback-urls", ...extraArgs],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let log = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service pair did not start in ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("PixelPress is running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`service pair exited with ${code}:\n${log}`));
    });
  });
  const credentials = JSON.parse(readFileSync(join(persistTo, "dev-key.json"), "utf8")) as { secret: string; key_id: string; account_id: string };
  return {
    edgeUrl: `http://127.0.0.1:${ports.edge}`,
    originUrl: `http://127.0.0.1:${ports.origin}`,
    apiKey: credentials.secret,
    keyId: credentials.key_id,
    accountId: credentials.account_id,
    persistTo,
    startLog: log,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        process.kill(child.pid!, "SIGINT");
        await exited;
      }
      rmSync(persistTo, { recursive: true, force: true });
    },
  };
}
