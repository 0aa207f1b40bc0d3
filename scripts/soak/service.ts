// The pair bench:soak runs: the real `npm start` path (scripts/dev.ts) on fresh state, with the
// edge's ORIGIN_URL pointed at the fault proxy and the origin a process this harness owns, so it
// can be killed and restarted mid-run. Everything listens on 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { freePort } from "../lib/free-port.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ORIGIN_ALLOCATOR_ENV } from "../../origin/allocator-env.ts";
import { ensureDevSecrets } from "../lib/dev-vars.ts";
import { startFaultProxy, type FaultProxy } from "./fault-proxy.ts";

function waitForLine(child: ChildProcess, text: string, timeoutMs: number, log: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${log.join("").slice(-4000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString());
      if (log.join("").includes(text)) {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        child.stderr!.off("data", onData);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before "${text}":\n${log.join("").slice(-4000)}`));
    });
  });
}

/** The origin as a child process this harness can SIGKILL, SIGTERM and start again on the same port. */
export class OriginProcess {
  private child: ChildProcess | null = null;
  readonly url: string;
  private readonly port: number;
  private readonly secret: string;
  restarts = 0;

  constructor(port: number, secret: string) {
    this.port = port;
    this.secret = secret;
    this.url = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, ["origin/server.ts"], {
      env: { ...process.env, ...ORIGIN_ALLOCATOR_ENV, ENVIRONMENT: "development", PORT: String(this.port), ORIGIN_SECRET: this.secret },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    await waitForLine(child, "origin listening", 30_000, []);
    // Keep draining its output so a chatty origin never blocks on a full pipe.
    child.stdout.resume();
    child.stderr.resume();
  }

  /** Stops it with `signal` and waits for the exit (a SIGTERM drains first). */
  async stop(signal: "SIGKILL" | "SIGTERM"): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill(signal);
    await exited;
    this.child = null;
  }

  async restart(signal: "SIGKILL" | "SIGTERM"): Promise<void> {
    await this.stop(signal);
    this.restarts++;
    await this.start();
  }

  /** The origin's own RSS, read from its /healthz (direct, not through the fault proxy). */
  async rssBytes(): Promise<number | null> {
    try {
      const res = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (!res.ok) return null;
      const body = await res.json<{ rss_bytes?: unknown }>();
      return typeof body.rss_bytes === "number" ? body.rss_bytes : null;
    } catch {
      return null;
    }
  }
}

export interface SoakService {
  edgeUrl: string;
  apiKey: string;
  accountId: string;
  persistTo: string;
  origin: OriginProcess;
  proxy: FaultProxy;
  stop(): Promise<void>;
}

/** Origin, then the proxy in front of it, then `scripts/dev.ts --origin-url <proxy>` on fresh state. */
export async function startSoakService(options: { timeoutMs?: number; shardsPerAccount?: number } = {}): Promise<SoakService> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  const secrets = ensureDevSecrets();
  const origin = new OriginProcess(await freePort(), secrets.ORIGIN_SECRET!);
  await origin.start();
  const proxy = await startFaultProxy(origin.url);
  const edgePort = await freePort();
  const persistTo = mkdtempSync(join(tmpdir(), "pixelpress-soak-"));
  const dev = spawn(
    process.execPath,
    [
      "scripts/dev.ts",
      ...["--port", String(edgePort), "--origin-url", proxy.url, "--persist-to", persistTo, "--allow-loopback-urls"],
      ...(options.shardsPerAccount === undefined ? [] : ["--shards-per-account", String(options.shardsPerAccount)]),
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const log: string[] = [];
  const stop = async () => {
    if (dev.exitCode === null && dev.signalCode === null) {
      const exited = new Promise((r) => dev.once("exit", r));
      process.kill(dev.pid!, "SIGINT");
      await exited;
    }
    await origin.stop("SIGTERM");
    await proxy.close();
    rmSync(persistTo, { recursive: true, force: true });
  };
  try {
    await waitForLine(dev, "PixelPress is running", timeoutMs, log);
  } catch (error) {
    await stop();
    throw error;
  }
  dev.stdout.resume();
  dev.stderr.resume();
  const credentials = JSON.parse(readFileSync(join(persistTo, "dev-key.json"), "utf8")) as { secret: string; account_id: string };
  return { edgeUrl: `http://127.0.0.1:${edgePort}`, apiKey: credentials.secret, accountId: credentials.account_id, persistTo, origin, proxy, stop };
}
