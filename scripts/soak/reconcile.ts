// The books, checked from the stores alone (D1 and R2), so the same check runs after a soak and,
// as `npm run admin -- reconcile`, against a real deployment:
//   - every job ended (succeeded, failed, cancelled) within its deadline; none stuck;
//   - every job or transform charge maps to exactly one delivered output, every such output to one
//     charge (a derivative of the same bytes as a charged one of its file needs none); failed and
//     cancelled jobs carry no charge;
//   - every balance equals minus its ledger (accounts open at zero; the opening balance is a row),
//     as the account shards fed both to the shared database (callers wait for the feed to be
//     quiet first: ./ledger-feed-settled.ts);
//   - every ended job with a webhook was delivered, or its next attempt is scheduled, or the
//     endpoint stopped it with a 410 (the documented stop);
//   - a transform charge whose derivative went with its deleted file (ack, DELETE, expiry) or
//     overlay file (l_), or was purged while its file lives (a purge of files, a preset changed or
//     deleted: purged_derivatives), or went with an origin path's version that is no longer
//     current (new bytes, a purge, the path gone upstream, the origin deleted), is a deliberate
//     deletion, not a charge without an output;
//   - no R2 object without its row, no ready row without its object (pending uploads excepted;
//     an idempotent response stored in R2 belongs to a record in its account's shard, not read here):
//     files, derivatives, originals kept from origins (`accounts/*/origins/…`, one per ready
//     origin path) and mezzanines (of a live file, or of an origin path's current version).
// Sync requests are charged under `req:<request id>`; only the client knows which it got, so
// their side of the books is checked against client logs (soak-ledger.ts).
import { createHash } from "node:crypto";
import { jobOfChargeKey, transformChargeKey, transformChargeOverlay, transformChargeSource } from "../../workers/billing/charge-key.ts";
import { fedBalances, ledgerRows } from "../../workers/billing/d1-ledger.ts";
import { orm } from "../../workers/db/orm.ts";
import { fileRows, liveFileAt } from "../../workers/files/d1-files.ts";
import { jobsSince } from "../../workers/jobs/d1-jobs.ts";
import { deliveredByJob } from "../../workers/jobs/delivered-by-job.ts";
import { jobDeliveredSchema, type JobDelivered } from "../../workers/jobs/job-delivered.ts";
import { originObjectAt, originObjectRows } from "../../workers/origins/d1-origins.ts";
import { isOriginSourceId, originSourceId } from "../../workers/origins/origin-source-id.ts";
import { derivativeAt, derivativeRows } from "../../workers/derivatives/d1-derivatives.ts";
import { purgedDerivativeRows } from "../../workers/derivatives/purged-derivative-store.ts";
import { formatClassOf } from "../../workers/derivatives/derivative-identity.ts";
import { deliveryRows } from "../../workers/webhooks/d1-deliveries.ts";

export interface ReconcileOptions {
  /** Only jobs created at or after this epoch ms (default: all). */
  since?: number;
  /** A job must end within this long of its creation. */
  jobDeadlineMs: number;
  /** An ended job may still be waiting for its first webhook attempt this long. */
  webhookGraceMs?: number;
  now?: number;
  /** SHA-256 (hex) of bytes that must never be stored (replies known to be corrupt): every object is read and hashed. */
  forbiddenDigests?: ReadonlySet<string>;
}

export type LedgerRow = Awaited<ReturnType<typeof ledgerRows>>[number];
type JobRow = Awaited<ReturnType<typeof jobsSince>>[number];

export interface PlatformReconciliation {
  /** `failures`: each failed job's id, operation and problem, so that a failure in a soak can be explained. */
  jobs: { total: number; succeeded: number; failed: number; cancelled: number; stuck: string[]; overdue: string[]; failures: string[] };
  charges: {
    rows: number;
    /** job:/transform: charges with no delivered output, or charged for a job that did not succeed. */
    withoutOutput: string[];
    /** transform: charges whose output went with its file (ack, DELETE or expiry) or with its origin path's version (superseded, purged, gone upstream, origin deleted): deleted on purpose, not lost. */
    deletedOutputs: string[];
    /** Delivered billable outputs (succeeded jobs, derivatives) with no charge, or a charge of another amount. */
    outputsWithoutCharge: string[];
    /** The ledger's unique index should make this impossible: (account, charge_key) seen twice. */
    duplicateKeys: string[];
  };
  balances: { accounts: number; mismatched: { account_id: string; balance: number; ledger: number }[] };
  /** `stopped`: the endpoint answered 410, the documented way to stop the retries. */
  webhooks: { endedWithWebhook: number; delivered: number; retryScheduled: number; awaitingFirst: number; stopped: number; lost: string[]; deliveredIds: string[] };
  storage: { objects: number; objectsWithoutRow: string[]; rowsWithoutObject: string[]; forbiddenObjects: string[] };
  /** Every `req:` charge, for the client-log side of the books. */
  requestCharges: LedgerRow[];
}

async function listAllKeys(bucket: R2Bucket): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, limit: 1000 });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

// Where an original kept from an origin lives (workers/origins/origin-original.ts).
const ORIGIN_ORIGINAL = /^accounts\/[^/]+\/origins\//;

/** The keys among `keys` that still disagree when read again (files, derivatives and origin originals; mezzanines and idempotency bodies are kept as found). */
async function stillDisagreeing(db: D1Database, bucket: R2Bucket, keys: string[], kind: "object without row" | "row without object"): Promise<string[]> {
  const disagreeing: string[] = [];
  for (const key of keys) {
    if (key.startsWith("mezzanine/") || key.startsWith("idempotency/")) {
      disagreeing.push(key);
      continue;
    }
    const object = await bucket.head(key);
    const [liveFiles, derivativesAtKey, originalsAtKey] = await orm(db).batch([liveFileAt(db, key), derivativeAt(db, key), originObjectAt(db, key)]);
    const hasRow = liveFiles.length + derivativesAtKey.length + originalsAtKey.length > 0;
    const disagrees = kind === "object without row" ? object !== null && !hasRow : hasRow && object === null;
    if (disagrees) disagreeing.push(key);
  }
  return disagreeing;
}

/**
 * What a succeeded job charged and which files it delivered, as its shard read them from its result
 * and fed them; for a job the report had before jobs moved into the shards, read from its stored
 * result. Null when the result is not its operation's.
 */
function deliveredBy(job: JobRow): JobDelivered | null {
  if (job.fed_seq === 0) return deliveredByJob(job.operation, job.result);
  const parsed = jobDeliveredSchema.nullable().safeParse(job.delivered);
  return parsed.success ? parsed.data : null;
}

export async function reconcilePlatform(db: D1Database, bucket: R2Bucket, options: ReconcileOptions): Promise<PlatformReconciliation> {
  const now = options.now ?? Date.now();
  const since = options.since ?? 0;
  const webhookGraceMs = options.webhookGraceMs ?? 60_000;

  // One batch is one transaction: the ledger, the balances and the rows are read as of one moment.
  const [jobs, ledger, files, derivatives, deliveries, accounts, originPaths, purged] = await orm(db).batch([
    jobsSince(db, since),
    ledgerRows(db),
    fileRows(db),
    derivativeRows(db),
    deliveryRows(db),
    fedBalances(db),
    originObjectRows(db),
    purgedDerivativeRows(db),
  ]);
  // An origin path's current version, as the source id its derivatives, charges and mezzanine carry.
  const readyPaths = originPaths.flatMap((p) => (p.status === "ready" && p.version !== null && p.r2_key !== null ? [{ ...p, version: p.version, r2_key: p.r2_key }] : []));
  const currentOriginSources = new Set(await Promise.all(readyPaths.map((p) => originSourceId(p.origin_id, p.path, p.version))));

  const final = new Set(["succeeded", "failed", "cancelled"]);
  const stuck = jobs.filter((j) => !final.has(j.status)).map((j) => `${j.id} (${j.status})`);
  const overdue = jobs
    .filter((j) => final.has(j.status) && j.finished_at !== null && j.finished_at - j.created_at > options.jobDeadlineMs)
    .map((j) => `${j.id} took ${j.finished_at! - j.created_at} ms`);

  // Charges <-> outputs, by charge key.
  const chargesByKey = new Map<string, LedgerRow[]>();
  for (const row of ledger) {
    const key = `${row.account_id} ${row.charge_key}`;
    chargesByKey.set(key, [...(chargesByKey.get(key) ?? []), row]);
  }
  const duplicateKeys = [...chargesByKey].filter(([, rows]) => rows.length > 1).map(([key]) => key);
  const jobsById = new Map(jobs.map((j) => [j.id, j]));
  const derivativeKey = (d: Pick<(typeof derivatives)[number], "account_id" | "file_id" | "canonical" | "format_class">) =>
    `${d.account_id} ${transformChargeKey({ fileId: d.file_id, canonical: d.canonical, formatClass: formatClassOf(d.format_class) })}`;
  const derivativeKeys = new Set(derivatives.map(derivativeKey));
  // Dropped by a purge of files or a preset's change while the file lives on (purged-derivative-store.ts).
  const purgedKeys = new Set(purged.map(derivativeKey));
  const fileStatus = new Map(files.map((f) => [f.id, f.status]));
  const withoutOutput: string[] = [];
  const deletedOutputs: string[] = [];
  const jobCharged = new Map<string, number>();
  for (const row of ledger) {
    const jobId = jobOfChargeKey(row.charge_key);
    if (jobId !== null) {
      const job = jobsById.get(jobId);
      if (!job && since > 0) continue;
      if (!job || job.status !== "succeeded") withoutOutput.push(`${row.charge_key} (job ${job?.status ?? "missing"})`);
      jobCharged.set(jobId, (jobCharged.get(jobId) ?? 0) + row.amount_micros);
    } else if (row.charge_key.startsWith("transform:") && !derivativeKeys.has(`${row.account_id} ${row.charge_key}`)) {
      // The charge paid for an output that was served. A deleted file takes its derivatives with it;
      // an origin path's derivatives go with their version once it is no longer the current one.
      const source = transformChargeSource(row.charge_key) ?? "";
      // So does a deleted overlay (l_) take the derivatives drawn with it.
      const overlay = transformChargeOverlay(row.charge_key);
      const deliberate =
        purgedKeys.has(`${row.account_id} ${row.charge_key}`) ||
        (overlay !== null && fileStatus.get(overlay) === "deleted") ||
        (fileStatus.has(source) ? fileStatus.get(source) === "deleted" : isOriginSourceId(source) && !currentOriginSources.has(source));
      (deliberate ? deletedOutputs : withoutOutput).push(row.charge_key);
    }
  }
  const outputsWithoutCharge: string[] = [];
  for (const job of jobs.filter((j) => j.status === "succeeded")) {
    const delivered = deliveredBy(job);
    if (!delivered) {
      outputsWithoutCharge.push(`${job.id}: stored result is not a ${job.operation} result`);
      continue;
    }
    const charged = jobCharged.get(job.id) ?? 0;
    if (delivered.charged_micros !== charged) outputsWithoutCharge.push(`${job.id}: result says ${delivered.charged_micros}, ledger ${charged}`);
    for (const fileId of delivered.file_ids) if (!fileStatus.has(fileId)) outputsWithoutCharge.push(`${job.id}: output ${fileId} has no row`);
  }
  // A derivative whose bytes equal a charged one of the same file (its ETag is their digest) was
  // stored and served without a charge of its own: derivative-store's rule.
  const sameBytes = (d: (typeof derivatives)[number]) => `${d.account_id} ${d.file_id} ${d.etag}`;
  const paidBytes = new Set(derivatives.filter((d) => chargesByKey.has(derivativeKey(d))).map(sameBytes));
  for (const d of derivatives) {
    if (!chargesByKey.has(derivativeKey(d)) && !paidBytes.has(sameBytes(d))) outputsWithoutCharge.push(`derivative ${derivativeKey(d)} never charged`);
  }

  // Balances: accounts open at zero and every movement is a ledger row.
  const ledgerSum = new Map<string, number>();
  for (const row of ledger) ledgerSum.set(row.account_id, (ledgerSum.get(row.account_id) ?? 0) + row.amount_micros);
  const mismatched = accounts
    .filter((a) => a.balance_micros !== -(ledgerSum.get(a.id) ?? 0))
    .map((a) => ({ account_id: a.id, balance: a.balance_micros, ledger: -(ledgerSum.get(a.id) ?? 0) }));

  // Webhooks: the last attempt of each event decides.
  const lastAttempt = new Map<string, (typeof deliveries)[number]>();
  const deliveredIds = new Set<string>();
  for (const d of deliveries) {
    lastAttempt.set(d.job_id, d);
    if (d.outcome === "delivered") deliveredIds.add(d.message_id);
  }
  const webhooks = { endedWithWebhook: 0, delivered: 0, retryScheduled: 0, awaitingFirst: 0, stopped: 0, lost: [] as string[], deliveredIds: [...deliveredIds] };
  for (const job of jobs.filter((j) => final.has(j.status) && j.webhook_url)) {
    webhooks.endedWithWebhook++;
    const last = lastAttempt.get(job.id);
    if (last && deliveries.some((d) => d.job_id === job.id && d.outcome === "delivered")) webhooks.delivered++;
    else if (last?.outcome === "failed" && last.next_attempt_at !== null) webhooks.retryScheduled++;
    else if (last?.outcome === "disabled") webhooks.stopped++;
    else if (!last && job.finished_at !== null && now - job.finished_at < webhookGraceMs) webhooks.awaitingFirst++;
    else webhooks.lost.push(`${job.id} (${last ? `attempt ${last.attempt} ${last.outcome}` : "never attempted"})`);
  }

  // Storage: every object belongs to a live row, every ready row has its object.
  const objectKeys = await listAllKeys(bucket);
  const objects = new Set(objectKeys);
  const liveFileKeys = new Map(files.filter((f) => f.status !== "deleted").map((f) => [f.r2_key, f]));
  const liveFileIds = new Set(files.filter((f) => f.status === "ready").map((f) => f.id));
  const derivativeObjects = new Set(derivatives.map((d) => d.r2_key));
  const originalObjects = new Set(readyPaths.map((p) => p.r2_key));
  const objectsWithoutRow = objectKeys.filter((key) => {
    if (key === "healthz") return false;
    if (key.startsWith("mezzanine/")) {
      const source = key.slice("mezzanine/".length);
      return !liveFileIds.has(source) && !currentOriginSources.has(source);
    }
    // A stored idempotent response's record is in its account's shard, which these books do not read.
    if (key.startsWith("idempotency/")) return false;
    if (key.includes("/derivatives/")) return !derivativeObjects.has(key);
    if (ORIGIN_ORIGINAL.test(key)) return !originalObjects.has(key);
    return !liveFileKeys.has(key);
  });
  const rowsWithoutObject = [
    ...files.filter((f) => f.status === "ready" && !objects.has(f.r2_key)).map((f) => f.r2_key),
    ...files.filter((f) => f.status === "pending" && f.kind === "result" && !objects.has(f.r2_key)).map((f) => f.r2_key),
    ...derivatives.filter((d) => !objects.has(d.r2_key)).map((d) => d.r2_key),
    ...readyPaths.filter((p) => !objects.has(p.r2_key)).map((p) => p.r2_key),
  ];
  // On a live service a row and its object change between the snapshot and the listing (an ack
  // deletes both, a store writes both): a pair is reported only if it still disagrees when looked at again.
  const stillWithoutRow = await stillDisagreeing(db, bucket, objectsWithoutRow, "object without row");
  const stillWithoutObject = await stillDisagreeing(db, bucket, rowsWithoutObject, "row without object");

  const forbiddenObjects: string[] = [];
  if (options.forbiddenDigests && options.forbiddenDigests.size > 0) {
    for (const key of objectKeys) {
      const object = await bucket.get(key);
      if (!object) continue;
      const digest = createHash("sha256").update(new Uint8Array(await object.arrayBuffer())).digest("hex");
      if (options.forbiddenDigests.has(digest)) forbiddenObjects.push(key);
    }
  }

  return {
    jobs: {
      total: jobs.length,
      succeeded: jobs.filter((j) => j.status === "succeeded").length,
      failed: jobs.filter((j) => j.status === "failed").length,
      failures: jobs.filter((j) => j.status === "failed").map((j) => `${j.id} ${j.operation}: ${JSON.stringify(j.error)}`),
      cancelled: jobs.filter((j) => j.status === "cancelled").length,
      stuck,
      overdue,
    },
    charges: { rows: ledger.length, withoutOutput, deletedOutputs, outputsWithoutCharge, duplicateKeys },
    balances: { accounts: accounts.length, mismatched },
    webhooks,
    storage: { objects: objectKeys.length, objectsWithoutRow: stillWithoutRow, rowsWithoutObject: stillWithoutObject, forbiddenObjects },
    requestCharges: ledger.filter((row) => row.charge_key.startsWith("req:")),
  };
}

/** The zero-targets of a platform reconciliation that failed, by name; empty when the books balance. */
export function platformFailures(r: PlatformReconciliation): string[] {
  const failures: [string, unknown[]][] = [
    ["stuck jobs", r.jobs.stuck],
    ["jobs past their deadline", r.jobs.overdue],
    ["charges without an output", r.charges.withoutOutput],
    ["outputs without their charge", r.charges.outputsWithoutCharge],
    ["charge keys charged twice", r.charges.duplicateKeys],
    ["balances off their ledger", r.balances.mismatched],
    ["webhooks lost", r.webhooks.lost],
    ["R2 objects without a row", r.storage.objectsWithoutRow],
    ["rows without their R2 object", r.storage.rowsWithoutObject],
    ["objects holding a corrupt reply", r.storage.forbiddenObjects],
  ];
  return failures.filter(([, list]) => list.length > 0).map(([name, list]) => `${name}: ${list.length} (${list.slice(0, 5).map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join("; ")})`);
}
