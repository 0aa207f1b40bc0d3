// The hostile mix: the soak's ordinary workload runs throughout, and in alternate blocks a second
// account sends what probing found could stop the service or be charged for nothing (hostile-
// inputs.ts). Blocks alternate so that both sides see the same machine, in the same process, over
// the same minutes; a block with the hostile account ends only when its last request was
// answered, so a block without it really is without it. Then:
//   - the ordinary requests' p99 with the hostile account against without it (target: within 2x);
//   - hangs: a request of either account not answered within its origin deadline plus the edge's
//     grace (originCallTimeoutMs) and a little for the edge itself (target: 0);
//   - charges for refused work, read from the D1 ledger: a hostile request answered 4xx or 5xx
//     whose request id is charged, or a transform charge on the truncated file (target: 0);
//   - charges for identical outputs: transform charges on the hostile account's still image beyond
//     one per distinct output (ph_lqip under every Accept class, anim_false) (target: 0);
//   - the account's usage report (GET /v1/usage) against its ledger.
import { MONEY_MOVEMENTS } from "../../workers/billing/ledger-operation.ts";
import { originCallTimeoutMs } from "../../contracts/limits/deadlines.ts";
import { generateWebhookSecret } from "../../contracts/webhooks/signature.ts";
import { openAccount } from "../../workers/billing/open-account.ts";
import { requestChargeKey } from "../../workers/billing/charge-key.ts";
import { ledgerRows } from "../../workers/billing/d1-ledger.ts";
import { ledgerFeedSettled } from "./ledger-feed-settled.ts";
import { createKey } from "../../workers/keys/key-store.ts";
import { openPlatform } from "../lib/local-platform.ts";
import { SoakClient, type Attempt } from "./client.ts";
import { identicalOutputTransforms, makeHostileInputs, type HostileRequest } from "./hostile-inputs.ts";
import { startSoakService } from "./service.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";
import { makeInputs, ordinaryLoopSetup, runLoop, uploadSource } from "./workload.ts";

export interface HostileOptions {
  /** Length of one block; blocks alternate without and with the hostile account, starting without. */
  blockMs: number;
  blocks: number;
  /** Ordinary client loops (one key each, the development account). */
  concurrency: number;
  /** Hostile client loops (one account, its own keys). */
  hostileConcurrency: number;
  /** As the faults soak's (./run-soak.ts). */
  shardsPerAccount?: number;
  log?: (line: string) => void;
}

interface LatencyFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Attempts the ordinary client gave up on (its own patience, 8 s or 16 s, is shorter than any deadline). */
  unanswered: number;
  "5xx": number;
}

export interface HostileFigures {
  blocks: { kind: "without" | "with"; startS: number; lengthS: number }[];
  ordinary: {
    without: LatencyFigures;
    with: LatencyFigures;
    /** p99 with the hostile account over p99 without it. */
    p99Ratio: number;
    byOp: Record<string, { withoutP99Ms: number; withP99Ms: number; without: number; with: number }>;
  };
  hostile: {
    requests: number;
    /** Per kind of request: how many, each status seen, the slowest answer. */
    byKind: Record<string, { sent: number; statuses: Record<string, number>; slowestMs: number }>;
    /** Refusals that were answered 2xx instead (a truncated animation accepted, say). */
    acceptedRefusals: string[];
  };
  /** Requests not answered within their origin deadline and grace (plus the edge's slack). */
  hangs: string[];
  charges: {
    hostileLedgerRows: number;
    hostileChargedMicros: number;
    refusedRequests: number;
    /** Ledger rows charged for a refused request or a refused transform. */
    chargedRefused: string[];
    /** Transform charges on the still file beyond one per distinct output (by ETag): spellings only the image makes equal. */
    chargedIdentical: number;
    /** The hostile account's usage report for the run (GET /v1/usage), against its ledger. */
    usage: { count: number; micros: number };
  };
  failures: string[];
}

/** The ordinary requests whose latency is judged: the processing calls, not polling or uploads. */
const ORDINARY_OPS = ["image.optimize.sync", "image.transform.hit", "image.transform.miss", "image.batch.sync", "xlsx.generate.sync"];
/** Beyond the deadline and grace the edge itself needs (auth, D1, reading a body) on a loaded machine. */
const EDGE_SLACK_MS = 5_000;
const P99_TARGET_RATIO = 2;
/** The first stretch of ordinary traffic warms the pair (threads, codecs, caches) and is not judged. */
const WARM_UP_MS = 15_000;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface HostileAnswer {
  kind: string;
  refused: boolean;
  started: number;
  ended: number;
  limitMs: number;
  status: number;
  requestId: string | null;
  problemType: string | null;
  path: string;
  etag: string | null;
}

/** One attempt, no retry: a hostile client does not need one, and a retry would hide a hang. */
async function sendHostile(edgeUrl: string, secret: string, request: HostileRequest): Promise<HostileAnswer> {
  const limitMs = originCallTimeoutMs(request.originPath, request.inputBytes) + EDGE_SLACK_MS;
  const started = Date.now();
  const answer = { kind: request.kind, refused: request.refused, started, limitMs, requestId: null, problemType: null, path: request.path, etag: null };
  try {
    const res = await fetch(`${edgeUrl}${request.path}`, {
      method: request.json === undefined ? "GET" : "POST",
      headers: request.json === undefined ? (request.accept ? { Accept: request.accept } : {}) : { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      signal: AbortSignal.timeout(limitMs),
    });
    const text = await res.text();
    let problemType: string | null = null;
    if (!res.ok) {
      try {
        problemType = (JSON.parse(text) as { type?: string }).type ?? null;
      } catch {
        problemType = "(not a problem document)";
      }
    }
    return { ...answer, ended: Date.now(), status: res.status, requestId: res.headers.get("X-Request-Id"), problemType, etag: res.headers.get("ETag") };
  } catch {
    return { ...answer, ended: Date.now(), status: 0 };
  }
}

function latency(attempts: (Attempt & { op: string })[]): LatencyFigures {
  const answered = attempts.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.ended - a.started);
  return {
    requests: attempts.length,
    p50Ms: percentile(answered, 50),
    p99Ms: percentile(answered, 99),
    unanswered: attempts.filter((a) => a.status === 0).length,
    "5xx": attempts.filter((a) => a.status >= 500).length,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runHostileSoak(options: HostileOptions): Promise<HostileFigures> {
  const say = options.log ?? (() => {});
  say("starting the pair (origin, proxy without faults, npm start path)...");
  const service = await startSoakService({ shardsPerAccount: options.shardsPerAccount });
  const webhookSecret = generateWebhookSecret();
  const receiver = await startWebhookReceiver(webhookSecret);
  try {
    say("generating inputs (20,000-page and over-cap PDFs, a Flate bomb, truncated animations, costly PDF pages and SVGs)...");
    const [inputs, hostileInputs] = await Promise.all([makeInputs(), makeHostileInputs()]);

    const hostileSecrets: string[] = [];
    let hostileAccountId: string;
    const platform = await openPlatform({ persistTo: service.persistTo });
    try {
      const account = await openAccount(platform.env.DB, { name: "hostile", plan: "pro", balanceMicros: 10_000_000 });
      hostileAccountId = account.id;
      for (let i = 0; i < options.hostileConcurrency; i++) hostileSecrets.push((await createKey(platform.env.DB, account.id, { name: `hostile-${i}` })).secret);
    } finally {
      await platform.dispose();
    }

    const admin = new SoakClient(service.edgeUrl, service.apiKey, () => Date.now() + 60_000);
    const { keys, transformFiles } = await ordinaryLoopSetup(admin, inputs.photoBytes, options.concurrency, "ordinary");
    const hostileClient = new SoakClient(service.edgeUrl, hostileSecrets[0]!, () => Date.now() + 60_000);
    const truncatedFile = await uploadSource(hostileClient, hostileInputs.truncatedGif, "image/gif", Date.now() + 60_000);
    const stillFile = await uploadSource(hostileClient, inputs.photoBytes, "image/jpeg", Date.now() + 60_000);
    const hostileKeyId = ((await hostileClient.call("keys.list", "/v1/keys", { timeoutMs: 10_000 })).body as { data: { key_id: string }[] }).data[0]!.key_id;
    const requests = [...hostileInputs.requests];
    if (stillFile) requests.push(...identicalOutputTransforms(hostileKeyId, stillFile, inputs.photoBytes.length));
    if (truncatedFile) {
      requests.push({
        kind: "URL transform of an uploaded truncated GIF",
        path: `/v1/image/t/${hostileKeyId}/w_40/${truncatedFile}`,
        originPath: "/image/transform",
        inputBytes: hostileInputs.truncatedGif.length,
        refused: true,
      });
    }

    const startedAt = Date.now();
    const judgedFrom = startedAt + WARM_UP_MS;
    const stopAt = judgedFrom + options.blocks * options.blockMs;
    say(`ordinary load: ${options.concurrency} loops; ${options.blocks} blocks of ${Math.round(options.blockMs / 1000)} s after ${WARM_UP_MS / 1000} s of warm-up, alternately without and with ${options.hostileConcurrency} hostile loops`);
    const loops = keys.map((key, i) =>
      runLoop(i, new SoakClient(service.edgeUrl, key.secret, () => stopAt + 30_000), {
        edgeUrl: service.edgeUrl,
        webhookUrl: receiver.url,
        webhookSecret,
        inputs,
        transformFiles,
        transformKeyId: keys[0]!.key_id,
        duplicateDeliveries: () => false,
        stopAt,
        hardStop: stopAt + 30_000,
      }),
    );

    // The block schedule: hostile loops run while `hostileOn`, each request to its answer.
    const answers: HostileAnswer[] = [];
    let hostileOn = false;
    let inFlight = 0;
    let next = 0;
    const hostileLoops = hostileSecrets.map(async (secret) => {
      while (Date.now() < stopAt) {
        if (!hostileOn) {
          await sleep(100);
          continue;
        }
        const request = requests[next++ % requests.length]!;
        inFlight++;
        answers.push(await sendHostile(service.edgeUrl, secret, request));
        inFlight--;
      }
    });
    const blocks: { kind: "without" | "with"; start: number; end: number }[] = [];
    await sleep(judgedFrom - Date.now());
    for (let b = 0; b < options.blocks; b++) {
      const kind = b % 2 === 0 ? "without" : "with";
      const start = Date.now();
      const blockEnd = judgedFrom + (b + 1) * options.blockMs;
      hostileOn = kind === "with";
      await sleep(blockEnd - Date.now());
      hostileOn = false;
      // A block with the hostile account lasts until its last request is answered.
      while (inFlight > 0) await sleep(50);
      blocks.push({ kind, start, end: Date.now() });
      say(`block ${b + 1}/${options.blocks} (${kind} the hostile account) ended; ${answers.length} hostile requests so far`);
    }
    await Promise.all(hostileLoops);
    const logs = await Promise.all(loops);
    say("load done; reading the ledger...");

    const books = await openPlatform({ persistTo: service.persistTo });
    let ledger: Awaited<ReturnType<typeof ledgerRows>>;
    try {
      await ledgerFeedSettled(books.env.DB);
      ledger = await ledgerRows(books.env.DB);
    } finally {
      await books.dispose();
    }
    const day = new Date().toISOString().slice(0, 10);
    const firstDay = new Date(startedAt).toISOString().slice(0, 10);
    const usageCall = await hostileClient.call("usage", `/v1/usage?from=${firstDay}&to=${day}`, { timeoutMs: 10_000 });
    const usage = (usageCall.body as { total: { count: number; micros: number } }).total;

    return hostileFigures({ options, logs, answers, blocks, ledger, usage, hostileAccountId, truncatedFile, stillFile, startedAt: judgedFrom });
  } finally {
    await receiver.close();
    await service.stop();
  }
}

function hostileFigures(run: {
  options: HostileOptions;
  logs: Awaited<ReturnType<typeof runLoop>>[];
  answers: HostileAnswer[];
  blocks: { kind: "without" | "with"; start: number; end: number }[];
  ledger: Awaited<ReturnType<typeof ledgerRows>>;
  usage: { count: number; micros: number };
  hostileAccountId: string;
  truncatedFile: string | null;
  stillFile: string | null;
  startedAt: number;
}): HostileFigures {
  const { answers, blocks, ledger } = run;
  const attempts = run.logs
    .flatMap((l) => l.client.calls)
    .filter((c) => ORDINARY_OPS.includes(c.op))
    .flatMap((c) => c.attempts.map((a) => ({ ...a, op: c.op })));
  const inBlocks = (kind: "without" | "with") => attempts.filter((a) => blocks.some((b) => b.kind === kind && a.started >= b.start && a.ended <= b.end));
  const without = inBlocks("without");
  const withHostile = inBlocks("with");
  const byOp: HostileFigures["ordinary"]["byOp"] = {};
  for (const op of ORDINARY_OPS) {
    const w = latency(without.filter((a) => a.op === op));
    const h = latency(withHostile.filter((a) => a.op === op));
    byOp[op] = { withoutP99Ms: w.p99Ms, withP99Ms: h.p99Ms, without: w.requests, with: h.requests };
  }
  const ordinaryWithout = latency(without);
  const ordinaryWith = latency(withHostile);
  const p99Ratio = ordinaryWithout.p99Ms > 0 ? Math.round((ordinaryWith.p99Ms / ordinaryWithout.p99Ms) * 100) / 100 : 0;

  const byKind: HostileFigures["hostile"]["byKind"] = {};
  for (const a of answers) {
    const entry = (byKind[a.kind] ??= { sent: 0, statuses: {}, slowestMs: 0 });
    entry.sent++;
    const label = a.status === 0 ? "no answer" : `${a.status}${a.problemType ? ` ${a.problemType.split("/").pop()}` : ""}`;
    entry.statuses[label] = (entry.statuses[label] ?? 0) + 1;
    entry.slowestMs = Math.max(entry.slowestMs, a.ended - a.started);
  }
  const ok = (status: number) => status >= 200 && status < 300;
  const acceptedRefusals = answers.filter((a) => a.refused && ok(a.status)).map((a) => `${a.kind} answered ${a.status} (${a.requestId})`);
  const hangs = [
    ...answers.filter((a) => a.status === 0).map((a) => `hostile ${a.kind}: no answer within ${Math.round(a.limitMs / 1000)} s`),
    // The ordinary client gives up sooner than any deadline; an attempt it gave up on is in its figures, not a hang.
  ];

  const movements: readonly string[] = MONEY_MOVEMENTS;
  const hostileRows = ledger.filter((row) => row.account_id === run.hostileAccountId && !movements.includes(row.operation));
  const refused = answers.filter((a) => !ok(a.status) && a.requestId !== null);
  const refusedKeys = new Set(refused.map((a) => requestChargeKey(a.requestId!)));
  const chargedRefused = hostileRows
    .filter((row) => refusedKeys.has(row.charge_key) || (run.truncatedFile !== null && row.charge_key.startsWith(`transform:${run.truncatedFile}:`)))
    .map((row) => `${row.charge_key} ${row.operation} ${row.amount_micros} micros`);
  const hostileChargedMicros = hostileRows.reduce((sum, row) => sum + row.amount_micros, 0);
  const stillCharges = run.stillFile === null ? 0 : hostileRows.filter((row) => row.charge_key.startsWith(`transform:${run.stillFile}:`)).length;
  const stillOutputs = new Set(answers.filter((a) => run.stillFile !== null && a.path.endsWith(`/${run.stillFile}`) && ok(a.status)).map((a) => a.etag)).size;
  const chargedIdentical = Math.max(0, stillCharges - stillOutputs);

  const figures: Omit<HostileFigures, "failures"> = {
    blocks: blocks.map((b) => ({ kind: b.kind, startS: Math.round((b.start - run.startedAt) / 100) / 10, lengthS: Math.round((b.end - b.start) / 100) / 10 })),
    ordinary: { without: ordinaryWithout, with: ordinaryWith, p99Ratio, byOp },
    hostile: { requests: answers.length, byKind, acceptedRefusals },
    hangs,
    charges: { hostileLedgerRows: hostileRows.length, hostileChargedMicros, refusedRequests: refused.length, chargedRefused, chargedIdentical, usage: run.usage },
  };
  const failures = [
    ...(ordinaryWithout.requests === 0 || ordinaryWith.requests === 0 ? ["no ordinary requests fell inside a block of each kind"] : []),
    ...(answers.length === 0 ? ["the hostile account sent nothing"] : []),
    ...(p99Ratio > P99_TARGET_RATIO ? [`ordinary p99 with the hostile account is ${p99Ratio}x the p99 without it (target <= ${P99_TARGET_RATIO}x)`] : []),
    ...(hangs.length > 0 ? [`hangs: ${hangs.length} (${hangs.slice(0, 3).join("; ")})`] : []),
    ...(chargedRefused.length > 0 ? [`charges for refused work: ${chargedRefused.length} (${chargedRefused.slice(0, 3).join("; ")})`] : []),
    ...(chargedIdentical > 0 ? [`charges for identical outputs: ${chargedIdentical} (${stillCharges} charges for ${stillOutputs} distinct outputs of the still file)`] : []),
    ...(acceptedRefusals.length > 0 ? [`hostile inputs accepted: ${acceptedRefusals.slice(0, 3).join("; ")}`] : []),
    ...(answers.some((a) => a.status >= 500 && a.status !== 503) ? ["a hostile request was answered with a 5xx other than 503"] : []),
    ...(run.usage.micros !== hostileChargedMicros ? [`usage says ${run.usage.micros} micros, the ledger ${hostileChargedMicros}`] : []),
  ];
  return { ...figures, failures };
}
