// `npm start -- --origins 3`: the edge spreads calls over three origin processes by load, routes
// around one that is frozen or killed, takes in one added while it runs, and every process it
// started goes when `npm start` is killed outright. Who got each call is read from the edge's
// /healthz (each instance's `routing.calls`, live) and from each origin's own /healthz.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDevSecrets } from "../scripts/lib/dev-vars.ts";
import { freeConsecutivePorts, freePort } from "../scripts/lib/free-port.ts";
import { parseStartOptions, startUsage } from "../scripts/lib/start-options.ts";
import { startServicePair, type ServicePair } from "./support/service-pair.ts";

let pair: ServicePair;
let originPort: number;
let pairKilled = false;
const stopped = new Set<number>();
const extraOrigins: ChildProcess[] = [];

const photo = (
  await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .composite([{ input: Buffer.from('<svg width="320" height="240"><circle cx="160" cy="120" r="90" fill="#e84"/></svg>') }])
    .jpeg()
    .toBuffer()
).toString("base64");

beforeAll(async () => {
  originPort = await freeConsecutivePorts(3);
  pair = await startServicePair({ edge: await freePort(), origin: originPort }, 150_000, ["--origins", "3"]);
});

afterAll(async () => {
  for (const pid of stopped) process.kill(pid, "SIGCONT");
  for (const origin of extraOrigins) origin.kill("SIGTERM");
  if (pairKilled) rmSync(pair.persistTo, { recursive: true, force: true });
  else await pair?.stop();
});

/** Each process under `root`, with its parent, command line, environment and state, from /proc. */
function descendants(root: number): { pid: number; argv: string[]; env: string[] }[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent !== pid) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found.map((pid) => {
    const read = (file: string) => {
      try {
        return readFileSync(`/proc/${pid}/${file}`, "utf8").split("\0");
      } catch {
        return [];
      }
    };
    return { pid, argv: read("cmdline"), env: read("environ") };
  });
}

/** The pid of the origin process `npm start` started on `port`. */
function originPid(port: number): number {
  const origin = descendants(pair.pid).find((p) => p.argv[1] === "origin/server.ts" && p.env.includes(`PORT=${port}`));
  if (!origin) throw new Error(`no origin process on port ${port}`);
  return origin.pid;
}

function alive(pid: number): boolean {
  try {
    // A zombie is gone too: only its exit status is left for a parent to collect.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

const auth = () => ({ Authorization: `Bearer ${pair.apiKey}` });

async function optimize(): Promise<{ status: number; charged: number }> {
  const res = await fetch(`${pair.edgeUrl}/v1/image/optimize`, {
    method: "POST",
    headers: { ...auth(), "Content-Type": "application/json" },
    body: JSON.stringify({ source: { base64: photo }, options: { width: 64, format: "jpeg", output: "base64" } }),
  });
  const body = await res.json<{ width?: number; billing?: { charged_micros: number } }>();
  if (res.status === 200) expect(body.width).toBe(64);
  return { status: res.status, charged: body.billing?.charged_micros ?? 0 };
}

/** `count` calls, `concurrency` at a time; `onEach` sees how many have finished. */
async function optimizeMany(count: number, concurrency: number, onEach: (done: number) => Promise<void> | void = () => undefined) {
  const results: { status: number; charged: number }[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      results.push(await optimize());
      await onEach(results.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return results;
}

/** Calls the edge has sent each instance so far (by name: origin-0, origin-1, …). */
async function routedCalls(): Promise<Record<string, number>> {
  const health = await (await fetch(`${pair.edgeUrl}/healthz`)).json<{ dependencies: { origin: { instances: { name: string; routing: { calls: number } }[] } } }>();
  return Object.fromEntries(health.dependencies.origin.instances.map((instance) => [instance.name, instance.routing.calls]));
}

function callsBetween(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, calls]) => [name, calls - (before[name] ?? 0)]));
}

const total = (calls: Record<string, number>) => Object.values(calls).reduce((sum, n) => sum + n, 0);

async function balance(): Promise<number> {
  return (await (await fetch(`${pair.edgeUrl}/v1/account`, { headers: auth() })).json<{ balance_micros: number }>()).balance_micros;
}

async function optimizeCharges(): Promise<number> {
  const today = new Date().toISOString().slice(0, 10);
  const usage = await (await fetch(`${pair.edgeUrl}/v1/usage?from=${today}&to=${today}&group_by=day_operation`, { headers: auth() })).json<{
    data: { operation: string; count: number }[];
  }>();
  return usage.data.find((row) => row.operation === "image.optimize")?.count ?? 0;
}

describe("npm start -- --origins", () => {
  it("refuses a count that is not a whole number from 1 to 99, naming the flag", () => {
    for (const count of ["0", "two", "100", "1.5"]) expect(() => parseStartOptions(["--origins", count])).toThrow("--origins takes a whole number");
    expect(parseStartOptions(["--origins", "12"]).origins).toBe("12");
    expect(startUsage()).toMatch(/--origins N\s+how many origin processes to start.*\(default 1\)/);
    const run = spawnSync(process.execPath, ["scripts/dev.ts", "--origins", "0"], { encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--origins takes a whole number");
  });

  it("refuses a --shards-per-account that is not a whole number from 1 to 62", () => {
    for (const count of ["0", "63", "x"]) expect(() => parseStartOptions(["--shards-per-account", count])).toThrow("--shards-per-account takes a whole number");
    expect(parseStartOptions(["--shards-per-account", "62"])["shards-per-account"]).toBe("62");
    expect(parseStartOptions([])["shards-per-account"]).toBeUndefined();
  });
});

describe("an edge over three origins", () => {
  it("spreads calls over all three", async () => {
    const before = await routedCalls();
    expect(Object.keys(before)).toEqual(["origin-0", "origin-1", "origin-2"]);
    const results = await optimizeMany(30, 3);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const spread = callsBetween(before, await routedCalls());
    for (const name of ["origin-0", "origin-1", "origin-2"]) expect(spread[name]).toBeGreaterThan(0);
  });

  it("sends a frozen (SIGSTOP) origin at most 10% of new calls 2 s later, and loses none of its calls", async () => {
    const frozen = originPid(originPort + 2);
    const results = await optimizeMany(10, 3);
    process.kill(frozen, "SIGSTOP");
    stopped.add(frozen);
    const frozenAt = Date.now();
    // Calls go on while the edge finds out; then the next ones are counted.
    while (Date.now() - frozenAt < 2_000) results.push(...(await optimizeMany(3, 3)));
    const before = await routedCalls();
    results.push(...(await optimizeMany(40, 4)));
    const after = callsBetween(before, await routedCalls());
    process.kill(frozen, "SIGCONT");
    stopped.delete(frozen);
    expect(after["origin-2"]! / total(after)).toBeLessThanOrEqual(0.1);
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
  });

  it("loses no call and charges none twice when an origin is killed in the middle of 200, and moves its share to the others within 1 s", async () => {
    const victim = originPid(originPort + 1);
    const [balanceBefore, chargesBefore] = [await balance(), await optimizeCharges()];
    const marks: { killedAt?: number; oneSecondOn?: Promise<Record<string, number>> } = {};
    const markOneSecondOn = () => {
      if (marks.killedAt !== undefined && marks.oneSecondOn === undefined && Date.now() - marks.killedAt >= 1_000) marks.oneSecondOn = routedCalls();
    };
    const results = await optimizeMany(200, 4, (done) => {
      if (done === 60) {
        process.kill(victim, "SIGKILL");
        marks.killedAt = Date.now();
      }
      markOneSecondOn();
    });
    // Calls that were on the killed origin were each retried once, on another: none is lost.
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    // Charged exactly once each: 200 ledger rows, and the balance down by what the 200 answers said.
    expect((await optimizeCharges()) - chargesBefore).toBe(200);
    expect(balanceBefore - (await balance())).toBe(results.reduce((sum, r) => sum + r.charged, 0));
    // Whatever of the second after the kill the 200 did not fill, the test waits out.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, marks.killedAt! + 1_000 - Date.now())));
    markOneSecondOn();
    const oneSecondOn = await marks.oneSecondOn!;
    expect((await optimizeMany(40, 4)).filter((r) => r.status !== 200)).toEqual([]);
    const since = callsBetween(oneSecondOn, await routedCalls());
    // At most the back-off's rare single try (refused at once and retried elsewhere) reaches it.
    expect(total(since)).toBeGreaterThanOrEqual(40);
    // The rest went to the living two; not necessarily to each, since the origin frozen by the test
    // before may still be in its back-off (up to 30 s), which is the chooser doing its job.
    expect(since["origin-1"]! / total(since)).toBeLessThanOrEqual(0.05);
    expect((since["origin-0"]! + since["origin-2"]!) / total(since)).toBeGreaterThanOrEqual(0.95);
  });

  it("takes in an origin added to the origins file while the edge runs", async () => {
    const port = await freePort();
    const added = spawn(process.execPath, ["origin/server.ts"], {
      env: { ...process.env, ENVIRONMENT: "development", PORT: String(port), ORIGIN_SECRET: ensureDevSecrets().ORIGIN_SECRET },
      stdio: "ignore",
    });
    extraOrigins.push(added);
    const addedHealth = async () => await (await fetch(`http://127.0.0.1:${port}/healthz`)).json<{ requests: number }>();
    await expect.poll(() => addedHealth().then(() => true, () => false), { timeout: 30_000, interval: 250 }).toBe(true);
    appendFileSync(join(pair.persistTo, "origins.txt"), `http://127.0.0.1:${port}\n`);
    for (let i = 0; i < 60 && (await addedHealth()).requests === 0; i++) expect((await optimize()).status).toBe(200);
    expect((await addedHealth()).requests).toBeGreaterThan(0);
    expect(Object.keys(await routedCalls())).toEqual(["origin-0", "origin-1", "origin-2", "origin-3"]);
  });
});

describe("npm start killed outright (SIGKILL to its process group)", () => {
  it("takes every process it started with it", async () => {
    const started = descendants(pair.pid);
    expect(started.filter((p) => p.argv[1] === "origin/server.ts").length).toBe(2);
    expect(started.some((p) => p.argv.some((arg) => arg.includes("wrangler")))).toBe(true);
    process.kill(-pair.pid, "SIGKILL");
    pairKilled = true;
    await expect.poll(() => started.filter((p) => alive(p.pid)).map((p) => p.argv.join(" ")), { timeout: 20_000, interval: 250 }).toEqual([]);
  });
});
