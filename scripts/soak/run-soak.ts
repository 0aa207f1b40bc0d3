// One soak: the pair on fresh state behind a fault proxy, `concurrency` client loops for
// `durationMs` under the fault schedule, a bounded drain, then the books from D1, R2, the client
// logs and the webhook receiver. Shared by `npm run bench:soak` and test/soak.e2e.test.ts.
import { generateWebhookSecret } from "../../contracts/webhooks/signature.ts";
import { openPlatform } from "../lib/local-platform.ts";
import { reconcileClientCharges, type ClientBooks } from "./client-books.ts";
import { SoakClient, type Attempt } from "./client.ts";
import type { ProxyFault } from "./fault-proxy.ts";
import { runFaultSchedule, WARM_UP_FRACTION, type FaultWindow } from "./faults.ts";
import { ledgerFeedSettled } from "./ledger-feed-settled.ts";
import { platformFailures, reconcilePlatform, type PlatformReconciliation } from "./reconcile.ts";
import { judgeRssFlatness, type RssSample, type RssVerdict } from "./rss-flatness.ts";
import { startSoakService } from "./service.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";
import { makeInputs, ordinaryLoopSetup, runLoop, type LoopLog } from "./workload.ts";

export interface SoakOptions {
  durationMs: number;
  concurrency: number;
  /** After the workload: how long jobs and webhooks get to finish before the books are read. */
  drainMs: number;
  /** Every job must end within this long of being accepted. */
  jobDeadlineMs: number;
  /** Shards each account's files, money and derivatives spread over (npm start's --shards-per-account); wrangler.toml's when unset. */
  shardsPerAccount?: number;
  log?: (line: string) => void;
}

export interface SoakFigures {
  durationMs: number;
  concurrency: number;
  requests: { total: number; "2xx": number; "4xx": number; "5xx": number; "5xx outside fault windows": number; unanswered: number; "unanswered outside fault windows": number };
  calls: { total: number; byOp: Record<string, number>; endedWithout2xx: string[] };
  jobs: { accepted: number; succeeded: number; failed: number; cancelled: number; stuck: number; overdue: number; redelivered: number; unknownToClient: number };
  charges: { ledgerRows: number; chargedSyncCalls: number; mismatches: number; doubleCharges: number; chargedFailures: number; withoutOutput: number; outputsWithoutCharge: number };
  webhooks: { endedWithWebhook: number; delivered: number; retryScheduled: number; lost: number; receivedIds: number; duplicatesDeduped: number; processedTwice: number; deliveredNotReceived: number; badSignatures: number };
  outputs: { checked: number; undecodable: number; corruptDelivered: number; corruptStored: number };
  storage: { objects: number; objectsWithoutRow: number; rowsWithoutObject: number; balancesOff: number };
  latencyMs: { "optimize p50": number; "optimize p99": number; "transform hit p50": number; "transform hit p99": number };
  /** warm and end are levels of one origin process, defined in `rule` (scripts/soak/rss-flatness.ts); start and peak are of the whole run. */
  originRss: { startMb: number; peakMb: number; restarts: number } & RssVerdict;
  faults: { kind: string; startS: number; lengthS: number }[];
  proxyInjected: Record<ProxyFault, number>;
  /** Every zero-target that was not zero, by name: empty means the soak passed. */
  failures: string[];
  details: { platform: PlatformReconciliation; client: ClientBooks; undecodable: string[] };
}

/** A 5xx or an unanswered attempt counts as inside a fault when it overlaps the window or its settling time. */
const FAULT_SETTLE_MS = 3_000;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const say = options.log ?? (() => {});
  say("starting the pair (origin, fault proxy, npm start path)...");
  const service = await startSoakService({ shardsPerAccount: options.shardsPerAccount });
  const webhookSecret = generateWebhookSecret();
  const receiver = await startWebhookReceiver(webhookSecret);
  const rss: RssSample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const bytes = await service.origin.rssBytes();
      if (bytes !== null) rss.push({ at: Date.now(), bytes });
      await new Promise((r) => setTimeout(r, 1_000));
    }
  })();
  try {
    const inputs = await makeInputs();
    const admin = new SoakClient(service.edgeUrl, service.apiKey, () => Date.now() + 60_000);
    const { keys, transformFiles } = await ordinaryLoopSetup(admin, inputs.photoBytes, options.concurrency, "soak");

    const startedAt = Date.now();
    const stopAt = startedAt + options.durationMs;
    const hardStop = stopAt + options.drainMs;
    say(`workload: ${options.concurrency} loops for ${Math.round(options.durationMs / 1000)} s, faults on schedule`);
    const warmAt = startedAt + WARM_UP_FRACTION * options.durationMs;
    const faults = runFaultSchedule(service, startedAt, options.durationMs);
    const loops = keys.map((key, i) =>
      runLoop(i, new SoakClient(service.edgeUrl, key.secret, () => hardStop), {
        edgeUrl: service.edgeUrl,
        webhookUrl: receiver.url,
        webhookSecret,
        inputs,
        transformFiles,
        transformKeyId: keys[0]!.key_id,
        duplicateDeliveries: () => Date.now() >= warmAt,
        stopAt,
        hardStop,
      }),
    );
    const [windows, logs] = await Promise.all([faults, Promise.all(loops)]);
    say(`workload done; draining jobs and webhooks (up to ${Math.round(options.drainMs / 1000)} s)...`);

    const platform = await openPlatform({ persistTo: service.persistTo });
    let books: PlatformReconciliation;
    try {
      const drainUntil = Date.now() + options.drainMs;
      for (;;) {
        books = await reconcilePlatform(platform.env.DB, platform.env.FILES, { jobDeadlineMs: options.jobDeadlineMs, webhookGraceMs: options.drainMs });
        const settled = books.jobs.stuck.length === 0 && books.webhooks.awaitingFirst === 0 && books.webhooks.retryScheduled === 0;
        if (settled || Date.now() >= drainUntil) break;
        await new Promise((r) => setTimeout(r, 2_000));
      }
      await ledgerFeedSettled(platform.env.DB);
      books = await reconcilePlatform(platform.env.DB, platform.env.FILES, {
        jobDeadlineMs: options.jobDeadlineMs,
        webhookGraceMs: 0,
        forbiddenDigests: service.proxy.corruptedPayloads,
      });
    } finally {
      await platform.dispose();
    }
    sampling = false;
    await sampler;
    return figures(options, { books, logs, windows, receiver, rss, startedAt, stopAt, service });
  } finally {
    sampling = false;
    await receiver.close();
    await service.stop();
  }
}

function figures(
  options: SoakOptions,
  run: {
    books: PlatformReconciliation;
    logs: LoopLog[];
    windows: FaultWindow[];
    receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
    rss: RssSample[];
    startedAt: number;
    stopAt: number;
    service: Awaited<ReturnType<typeof startSoakService>>;
  },
): SoakFigures {
  const { books, logs, windows, receiver, rss } = run;
  const calls = logs.flatMap((l) => l.client.calls);
  const attempts: (Attempt & { op: string })[] = calls.flatMap((c) => c.attempts.map((a) => ({ ...a, op: c.op })));
  const inFault = (a: Attempt) => windows.some((w) => a.ended >= w.start && a.started <= w.end + FAULT_SETTLE_MS);
  const clean = attempts.filter((a) => !inFault(a));
  const ok = (a: Attempt) => a.status >= 200 && a.status < 300;

  const client = reconcileClientCharges(calls, books.requestCharges);
  const accepted = logs.flatMap((l) => l.jobs);
  const acceptedIds = new Set(accepted.map((j) => j.jobId));
  const receivedIds = new Set(receiver.events.keys());
  const digests = logs.flatMap((l) => l.outputDigests);
  const undecodable = logs.flatMap((l) => l.badOutputs);

  const peak = Math.max(...rss.map((s) => s.bytes));
  const kills = windows.filter((w) => w.kind.startsWith("origin"));
  const rssVerdict = judgeRssFlatness({
    samples: rss,
    processLives: [run.startedAt, ...kills.map((w) => w.end)].map((start, i) => ({ start, end: kills[i]?.start ?? Infinity })),
    runStartedAt: run.startedAt,
    loadEndsAt: run.stopAt,
    answers: attempts.filter(ok).map((a) => ({ op: a.op, at: a.ended })),
    warmUpMs: WARM_UP_FRACTION * options.durationMs,
    windowMs: WARM_UP_FRACTION * options.durationMs,
  });

  const byOp: Record<string, number> = {};
  for (const call of calls) byOp[call.op] = (byOp[call.op] ?? 0) + 1;
  const endedWithout2xx = calls.filter((c) => !(c.status >= 200 && c.status < 300)).map((c) => `${c.op} ${c.status} after ${c.attempts.length} attempts`);

  const result: Omit<SoakFigures, "failures"> = {
    durationMs: options.durationMs,
    concurrency: options.concurrency,
    requests: {
      total: attempts.length,
      "2xx": attempts.filter(ok).length,
      "4xx": attempts.filter((a) => a.status >= 400 && a.status < 500).length,
      "5xx": attempts.filter((a) => a.status >= 500).length,
      "5xx outside fault windows": clean.filter((a) => a.status >= 500).length,
      unanswered: attempts.filter((a) => a.status === 0).length,
      "unanswered outside fault windows": clean.filter((a) => a.status === 0).length,
    },
    calls: { total: calls.length, byOp, endedWithout2xx },
    jobs: {
      accepted: accepted.length,
      succeeded: books.jobs.succeeded,
      failed: books.jobs.failed,
      cancelled: books.jobs.cancelled,
      stuck: books.jobs.stuck.length,
      overdue: books.jobs.overdue.length,
      redelivered: accepted.filter((j) => j.redelivered).length,
      unknownToClient: books.jobs.total - [...acceptedIds].length,
    },
    charges: {
      ledgerRows: books.charges.rows,
      chargedSyncCalls: client.chargedCalls,
      mismatches: client.mismatches.length + books.charges.withoutOutput.length + books.charges.outputsWithoutCharge.length,
      doubleCharges: client.doubleCharges + books.charges.duplicateKeys.length,
      chargedFailures: client.chargedFailures.length,
      withoutOutput: books.charges.withoutOutput.length,
      outputsWithoutCharge: books.charges.outputsWithoutCharge.length,
    },
    webhooks: {
      endedWithWebhook: books.webhooks.endedWithWebhook,
      delivered: books.webhooks.delivered,
      retryScheduled: books.webhooks.retryScheduled,
      lost: books.webhooks.lost.length + books.webhooks.deliveredIds.filter((id) => !receivedIds.has(id)).length,
      receivedIds: receivedIds.size,
      duplicatesDeduped: [...receiver.events.values()].reduce((n, e) => n + Math.max(0, e.deliveries - 1), 0),
      processedTwice: [...receiver.events.values()].filter((e) => e.processed > 1).length,
      deliveredNotReceived: books.webhooks.deliveredIds.filter((id) => !receivedIds.has(id)).length,
      badSignatures: receiver.badSignatures,
    },
    outputs: {
      checked: digests.length,
      undecodable: undecodable.length,
      corruptDelivered: digests.filter((d) => run.service.proxy.corruptedPayloads.has(d)).length,
      corruptStored: books.storage.forbiddenObjects.length,
    },
    storage: {
      objects: books.storage.objects,
      objectsWithoutRow: books.storage.objectsWithoutRow.length,
      rowsWithoutObject: books.storage.rowsWithoutObject.length,
      balancesOff: books.balances.mismatched.length,
    },
    latencyMs: {
      "optimize p50": percentile(clean.filter((a) => a.op === "image.optimize.sync" && ok(a)).map((a) => a.ended - a.started), 50),
      "optimize p99": percentile(clean.filter((a) => a.op === "image.optimize.sync" && ok(a)).map((a) => a.ended - a.started), 99),
      "transform hit p50": percentile(clean.filter((a) => a.op === "image.transform.hit" && ok(a)).map((a) => a.ended - a.started), 50),
      "transform hit p99": percentile(clean.filter((a) => a.op === "image.transform.hit" && ok(a)).map((a) => a.ended - a.started), 99),
    },
    originRss: { startMb: mb(rss[0]?.bytes ?? 0), peakMb: mb(peak), restarts: run.service.origin.restarts, ...rssVerdict },
    faults: windows.map((w) => ({ kind: w.kind, startS: Math.round((w.start - (windows[0]?.start ?? 0)) / 100) / 10, lengthS: Math.round((w.end - w.start) / 100) / 10 })),
    proxyInjected: { ...run.service.proxy.injected },
    details: { platform: books, client, undecodable },
  };
  const failures = [
    ...platformFailures(books),
    ...(result.requests["5xx outside fault windows"] > 0 ? [`5xx outside fault windows: ${result.requests["5xx outside fault windows"]}`] : []),
    ...(client.mismatches.length > 0 ? [`sync charges vs answers: ${client.mismatches.slice(0, 5).join("; ")}`] : []),
    ...(client.doubleCharges > 0
      ? [`double charges: ${client.doubleCharges} (charges no call saw: ${client.unattributedCharges.join("; ")}; calls retried past a lost or replayed answer: ${client.retriedCalls.join("; ")})`]
      : []),
    ...(client.chargedFailures.length > 0 ? [`charged failed requests: ${client.chargedFailures.slice(0, 5).join("; ")}`] : []),
    ...(result.jobs.unknownToClient !== 0 ? [`jobs the clients were never told of: ${result.jobs.unknownToClient}`] : []),
    ...(result.webhooks.deliveredNotReceived > 0 ? [`webhooks D1 calls delivered that the receiver never saw: ${result.webhooks.deliveredNotReceived}`] : []),
    ...(result.webhooks.processedTwice > 0 ? [`webhooks processed twice: ${result.webhooks.processedTwice}`] : []),
    ...(receiver.badSignatures > 0 ? [`webhooks with a bad signature: ${receiver.badSignatures}`] : []),
    ...(undecodable.length > 0 ? [`outputs that do not decode: ${undecodable.slice(0, 3).join("; ")}`] : []),
    ...(result.outputs.corruptDelivered > 0 ? [`corrupted replies delivered: ${result.outputs.corruptDelivered}`] : []),
    ...(!result.originRss.flat ? [`origin RSS not flat: warm ${result.originRss.warmMb} MB, end ${result.originRss.endMb} MB (${result.originRss.judged})`] : []),
  ];
  return { ...result, failures };
}
