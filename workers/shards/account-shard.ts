import { feedQueueOf } from "../billing/feed-queues.ts";
import { MAX_DERIVATIVES_PER_FILE } from "../../contracts/limits/derivatives.ts";
import type { ProblemBody } from "../../contracts/problems/catalogue.ts";
import { AccountMoney } from "../billing/account-money.ts";
import type { Charge } from "../billing/charge.ts";
import type { Allotment } from "../billing/shard-transfers.ts";
import { ledgerRowsBeforeShard } from "../billing/d1-ledger.ts";
import { FEED_DERIVATIVES, FEED_JOBS, FEED_ROWS, ledgerFeedMessage } from "../billing/ledger-feed.ts";
import { derivativesBeforeShard } from "../derivatives/d1-derivatives.ts";
import {
  countShardDerivatives,
  derivativesMadeWith,
  dropDerivativesMadeWith,
  derivativesUnder,
  dropDerivativesUnder,
  dropNamedDerivatives,
  findShardDerivative,
  hasSameBytes,
  importShardDerivatives,
  keepShardDerivative,
  madeOfGoneSource,
  markDerivativesFed,
  recordGoneSources,
  unfedDerivativeChanges,
  type ShardDerivativeName,
  type ShardDerivativeRow,
} from "../derivatives/shard-derivatives.ts";
import { balanceMicros, importLedgerRows, lastSeq, ledgerRows, markFed, unfedRows, type ShardChargeOutcome, type ShardLedgerRow } from "../billing/shard-ledger.ts";
import { usageReaders, type DailyOperationUsageRow, type DailyUsageRow, type UsageGrouping, type UsageRow } from "../billing/usage.ts";
import { liveD1Records } from "../idempotency/d1-idempotency-records.ts";
import {
  claimRecord,
  completeRecord,
  findRecord,
  importRecords,
  nextExpiry,
  pruneRecords,
  releaseRecord,
  type IdempotencyRecord,
  type RecordName,
} from "../idempotency/shard-idempotency-records.ts";
import { jobsBeforeShard } from "../jobs/d1-jobs.ts";
import {
  cancelShardJob,
  claimShardJob,
  failUnfinishedShardJob,
  findShardJob,
  finishShardJob,
  importShardJobs,
  insertShardJob,
  markJobsFed,
  requeueShardJob,
  setShardJobProgress,
  unfedJobChanges,
  type JobEnd,
  type NewShardJob,
  type ShardClaim,
  type ShardJobRow,
} from "../jobs/shard-jobs.ts";
import { deliveriesBeforeShard } from "../webhooks/d1-deliveries.ts";
import {
  deliveriesOfJobs,
  importShardDeliveries,
  listShardDeliveries,
  recordShardDelivery,
  shardDeliveryAttempted,
  type ShardDeliveryRow,
} from "../webhooks/shard-deliveries.ts";
import { FEED_MESSAGES_PER_ALARM, Shard, type ShardEnv } from "./shard.ts";
import { accountShardIn, branchOfShardName } from "./account-shard-name.ts";
import { ACCOUNT_SHARD_STEPS } from "./shard-migrations.ts";

// What the shard brought over from the shared database once, each recorded as a fact.
const IDEMPOTENCY_IMPORTED = "d1_idempotency_imported";
const LEDGER_IMPORTED = "d1_ledger_imported";
const DERIVATIVES_IMPORTED = "d1_derivatives_imported";
const JOBS_IMPORTED = "d1_jobs_imported";
// A branch's number, noted at its first call.
const BRANCH = "branch";

/** What an account shard reads: the shared database and feed, and its account's other shards. */
type AccountShardEnv = ShardEnv & { ACCOUNT_SHARDS: DurableObjectNamespace<AccountShard> };

/**
 * One account's own state, in a Durable Object with its own SQLite database: its money (the
 * ledger, the balance, charge-once), its idempotency records, its derivative index and its async
 * jobs with their webhook attempts. The account's calls run here one at a time and never queue
 * behind another account's, so the ceiling grows with the number of accounts instead of being one
 * shared database's (docs/scale.md).
 *
 * An account's shard is found by the account id (`accountShard` in ./shard-stub.ts). A busy
 * account has branches too (workers/billing/account-branches.ts), each this class under a name of
 * its own: a branch keeps the derivatives of the files, and the jobs, whose ids name it, and
 * charges for them, and for sync calls, from an allotment of the account's money
 * (workers/billing/account-money.ts).
 * The first shard, used by this deployment for the first time, imports what the shared database
 * held for its account, once, before it answers anything: its ledger (and so its balance), its
 * live idempotency records, its derivatives and its jobs; a branch starts empty. Every shard's new
 * ledger rows, derivative and job changes reach the shared database's reports through the ledger
 * feed, a moment later.
 */
export class AccountShard extends Shard<AccountShardEnv> {
  private moneyHere?: AccountMoney;

  constructor(ctx: DurableObjectState, env: AccountShardEnv) {
    super(ctx, env, ACCOUNT_SHARD_STEPS);
  }

  /** Records the charge once; an overdraw is refused with nothing recorded once the account's money, wherever it sits, does not cover it. */
  async charge(accountId: string, charge: Charge, now: number): Promise<{ outcome: ShardChargeOutcome; balanceMicros: number | null }> {
    await this.importLedgerOnce(accountId);
    const outcome = await this.money.charge(accountId, charge, now);
    // A branch's balance is its allotment's rest, not the account's.
    return { outcome, balanceMicros: this.money.branch === 0 ? this.money.held() : null };
  }

  /** The first shard: the balance, when it is below `cover` after gathering the branches' and looking for granted top-ups (`cover` of Infinity: the whole balance, wherever it sits). */
  async balance(accountId: string, cover: number): Promise<number> {
    await this.importLedgerOnce(accountId);
    return cover === Number.POSITIVE_INFINITY ? this.money.whole(accountId) : this.money.balance(accountId, cover);
  }

  /** A branch: what it holds of the account's money (`last`: the first shard's newest allotment to it). */
  async heldMicros(accountId: string, last: Allotment | null): Promise<number> {
    await this.importLedgerOnce(accountId);
    return this.money.holds(last);
  }

  /** The first shard: an allotment a branch asks for (workers/billing/account-money.ts). */
  async allot(accountId: string, branch: number, grant: number, need: number): Promise<number> {
    await this.importLedgerOnce(accountId);
    return this.money.allot(accountId, branch, grant, need);
  }

  /** A branch: gives back what it holds, as the first shard asks (workers/billing/account-money.ts). */
  async giveBack(accountId: string, recall: number, last: Allotment | null): Promise<number> {
    await this.importLedgerOnce(accountId);
    return this.money.giveBack(recall, last);
  }

  /** What the account spent here between two instants, grouped as `/v1/usage` asks. */
  async usage(accountId: string, grouping: UsageGrouping, from: number, to: number): Promise<UsageRow[] | DailyUsageRow[] | DailyOperationUsageRow[]> {
    await this.importLedgerOnce(accountId);
    return usageReaders[grouping](this.db, from, to);
  }

  /** Every ledger row, oldest first, for the account's books. */
  async ledger(accountId: string): Promise<ShardLedgerRow[]> {
    await this.importLedgerOnce(accountId);
    return ledgerRows(this.db);
  }

  /** The derivative's row, or null with how many derivatives its source has (the caller's cap). */
  async storedDerivative(accountId: string, name: ShardDerivativeName): Promise<{ row: ShardDerivativeRow | null; count: number }> {
    await this.importDerivativesOnce(accountId);
    const row = findShardDerivative(this.db, name);
    return { row, count: row === null ? countShardDerivatives(this.db, name.fileId) : 0 };
  }

  /**
   * Keeps a derivative whose object is stored, charging for it first unless its source already has
   * a derivative of the same bytes: refused for want of balance, as a new derivative of a source
   * at its cap, or as one made of a source deleted meanwhile, nothing is kept.
   */
  async keepDerivative(
    accountId: string,
    row: ShardDerivativeRow,
    charge: Charge | null,
    now: number,
  ): Promise<{ outcome: ShardChargeOutcome | "same_bytes" | "derivative_limit" | "source_gone"; balanceMicros: number | null }> {
    await this.importDerivativesOnce(accountId);
    if (madeOfGoneSource(this.db, row)) return { outcome: "source_gone", balanceMicros: null };
    if (findShardDerivative(this.db, row) === null && countShardDerivatives(this.db, row.fileId) >= MAX_DERIVATIVES_PER_FILE) {
      return { outcome: "derivative_limit", balanceMicros: null };
    }
    let charged: { outcome: ShardChargeOutcome | "same_bytes"; balanceMicros: number | null } = { outcome: "same_bytes", balanceMicros: null };
    if (charge !== null && !hasSameBytes(this.db, row.fileId, row.etag)) charged = await this.charge(accountId, charge, now);
    if (charged.outcome === "insufficient_balance") return charged;
    keepShardDerivative(this.db, row);
    await this.feedSoon();
    return charged;
  }

  /** The derivatives of the sources, and those drawn with one of them as their overlay. */
  async derivativesMadeWith(accountId: string, fileIds: string[]): Promise<ShardDerivativeRow[]> {
    await this.importDerivativesOnce(accountId);
    return derivativesMadeWith(this.db, fileIds);
  }

  /**
   * Drops the derivatives of the sources, and those drawn with one of them as their overlay; returns
   * their rows. `gone`: the sources were deleted, and a derivative of one kept later is refused.
   */
  async dropDerivativesMadeWith(accountId: string, fileIds: string[], gone: boolean, now: number): Promise<ShardDerivativeRow[]> {
    await this.importDerivativesOnce(accountId);
    if (gone) recordGoneSources(this.db, fileIds, now);
    return this.fed(dropDerivativesMadeWith(this.db, fileIds));
  }

  async dropNamedDerivatives(accountId: string, names: ShardDerivativeName[]): Promise<ShardDerivativeRow[]> {
    await this.importDerivativesOnce(accountId);
    return this.fed(dropNamedDerivatives(this.db, names));
  }

  /** Drops the derivatives of every source whose id starts with `sourcePrefix`. */
  async dropDerivativesUnder(accountId: string, sourcePrefix: string): Promise<ShardDerivativeRow[]> {
    await this.importDerivativesOnce(accountId);
    return this.fed(dropDerivativesUnder(this.db, sourcePrefix));
  }

  async derivativesUnder(accountId: string, sourcePrefix: string): Promise<ShardDerivativeRow[]> {
    await this.importDerivativesOnce(accountId);
    return derivativesUnder(this.db, sourcePrefix);
  }

  async claimIdempotencyKey(accountId: string, name: RecordName, fingerprint: string, now: number): Promise<boolean> {
    await this.importIdempotencyOnce(accountId, now);
    const claimed = claimRecord(this.db, name, fingerprint, now);
    if (claimed) await this.wakeAt(nextExpiry(this.db));
    return claimed;
  }

  async idempotencyRecord(accountId: string, name: RecordName): Promise<IdempotencyRecord | null> {
    await this.importIdempotencyOnce(accountId, Date.now());
    return findRecord(this.db, name);
  }

  completeIdempotencyKey(name: RecordName, response: { status: number; headers: Record<string, string>; body: string }): void {
    completeRecord(this.db, name, response);
  }

  releaseIdempotencyKey(name: RecordName): void {
    releaseRecord(this.db, name);
  }

  async createJob(accountId: string, job: NewShardJob): Promise<ShardJobRow> {
    await this.importJobsOnce(accountId);
    const row = insertShardJob(this.db, job);
    await this.feedSoon();
    return row;
  }

  /** The job with its webhook's attempts; null for no such job in this account. */
  async job(accountId: string, jobId: string): Promise<{ job: ShardJobRow; deliveries: ShardDeliveryRow[] } | null> {
    await this.importJobsOnce(accountId);
    const job = findShardJob(this.db, jobId);
    return job && { job, deliveries: listShardDeliveries(this.db, jobId) };
  }

  async claimJob(accountId: string, jobId: string, now: number, leaseMs: number): Promise<ShardClaim> {
    await this.importJobsOnce(accountId);
    const claim = claimShardJob(this.db, jobId, now, leaseMs);
    if (claim.claimed) await this.feedSoon();
    return claim;
  }

  async finishJob(accountId: string, jobId: string, end: JobEnd, now: number): Promise<boolean> {
    await this.importJobsOnce(accountId);
    return this.jobFed(finishShardJob(this.db, jobId, end, now));
  }

  async failUnfinishedJob(accountId: string, jobId: string, error: ProblemBody, now: number): Promise<ShardJobRow | null> {
    await this.importJobsOnce(accountId);
    const failed = failUnfinishedShardJob(this.db, jobId, error, now);
    await this.jobFed(failed !== null);
    return failed;
  }

  async requeueJob(accountId: string, jobId: string): Promise<void> {
    await this.importJobsOnce(accountId);
    requeueShardJob(this.db, jobId);
    await this.feedSoon();
  }

  async setJobProgress(accountId: string, jobId: string, done: number, total: number): Promise<void> {
    await this.importJobsOnce(accountId);
    setShardJobProgress(this.db, jobId, done, total);
  }

  /** Cancels a queued job; otherwise the job as it is (null: no such job). */
  async cancelJob(accountId: string, jobId: string, now: number): Promise<{ cancelled: boolean; job: ShardJobRow | null }> {
    await this.importJobsOnce(accountId);
    const cancelled = cancelShardJob(this.db, jobId, now);
    await this.jobFed(cancelled !== null);
    return cancelled ? { cancelled: true, job: cancelled } : { cancelled: false, job: findShardJob(this.db, jobId) };
  }

  /** The job a webhook attempt reports, and whether that attempt already ran; null for no such job. */
  async webhookAttempt(accountId: string, jobId: string, attempt: number): Promise<{ job: ShardJobRow; attempted: boolean } | null> {
    await this.importJobsOnce(accountId);
    const job = findShardJob(this.db, jobId);
    return job && { job, attempted: shardDeliveryAttempted(this.db, jobId, attempt) };
  }

  async recordWebhookAttempt(accountId: string, delivery: ShardDeliveryRow): Promise<void> {
    await this.importJobsOnce(accountId);
    recordShardDelivery(this.db, delivery);
    await this.feedSoon();
  }

  /** Feeds new ledger rows, derivative and job changes, drops expired idempotency records, and wakes again for whichever comes next. */
  override async alarm(): Promise<void> {
    await this.feedUnfed(this.accountOf([LEDGER_IMPORTED, DERIVATIVES_IMPORTED, JOBS_IMPORTED]), (accountId) => this.feed(accountId));
    pruneRecords(this.db, Date.now());
    await this.wakeAt(nextExpiry(this.db));
  }

  /** Sends unfed rows, derivative and job changes, FEED_ROWS, FEED_DERIVATIVES and FEED_JOBS a message; true when some are left for the next alarm. */
  private async feed(accountId: string): Promise<boolean> {
    for (let sent = 0; sent < FEED_MESSAGES_PER_ALARM; sent++) {
      const rows = unfedRows(this.db, FEED_ROWS);
      const derivatives = unfedDerivativeChanges(this.db, FEED_DERIVATIVES);
      const jobs = unfedJobChanges(this.db, FEED_JOBS);
      if (rows.length === 0 && derivatives.length === 0 && jobs.length === 0) return false;
      const through = rows.at(-1)?.seq ?? null;
      // Read with the rows, before the send yields: the balance is the one after `through` only if no row came later.
      const balance = through !== null && lastSeq(this.db) === through ? { micros: balanceMicros(this.db), seq: through, branch: this.money.branch } : null;
      const attempts = deliveriesOfJobs(this.db, jobs.map((job) => job.row.id));
      const jobsWithAttempts = jobs.map((job) => ({ ...job, deliveries: attempts.filter((attempt) => attempt.jobId === job.row.id) }));
      await feedQueueOf(this.env, accountId).send(ledgerFeedMessage(accountId, rows, balance, derivatives, jobsWithAttempts));
      if (through !== null) markFed(this.db, through);
      if (derivatives.length > 0) markDerivativesFed(this.db, derivatives.at(-1)!.seq);
      if (jobs.length > 0) markJobsFed(this.db, jobs.at(-1)!.seq);
    }
    return unfedRows(this.db, 1).length > 0 || unfedDerivativeChanges(this.db, 1).length > 0 || unfedJobChanges(this.db, 1).length > 0;
  }

  /** A job just changed (when `changed`), with the feed told to carry it. */
  private async jobFed(changed: boolean): Promise<boolean> {
    if (changed) await this.feedSoon();
    return changed;
  }

  /** Rows just dropped, with the feed told to carry their drop. */
  private async fed(dropped: ShardDerivativeRow[]): Promise<ShardDerivativeRow[]> {
    if (dropped.length > 0) await this.feedSoon();
    return dropped;
  }

  /** The one-time import of the account's ledger; no other call of this shard runs while it reads the shared database. */
  private async importLedgerOnce(accountId: string): Promise<void> {
    await this.importOnce(LEDGER_IMPORTED, accountId, async () => {
      importLedgerRows(this.db, await ledgerRowsBeforeShard(this.env.DB, accountId));
    });
  }

  /**
   * Runs `work` once in the first shard's life. A branch imports nothing: what the shared database
   * held (from before the shards, or fed since by the others) is the first shard's or another
   * branch's, so a branch starts empty and notes which it is for its alarm.
   */
  private async importOnce(fact: string, accountId: string, work: () => Promise<void>): Promise<void> {
    await this.once(fact, accountId, async () => {
      const branch = this.money.branch;
      if (branch === 0) await work();
      else this.noteFact(BRANCH, String(branch));
    });
  }

  /** This shard's money, in whichever of its account's shards this is: named by its id, or (in an alarm, which may know no name) by the fact its first call noted. */
  private get money(): AccountMoney {
    this.moneyHere ??= new AccountMoney(this.db, this.env.DB, this.ctx.id.name !== undefined ? branchOfShardName(this.ctx.id.name) : Number(this.fact(BRANCH) ?? 0), {
      changed: () => this.feedSoon(),
      peer: (accountId, peer) => accountShardIn(this.env.ACCOUNT_SHARDS, accountId, peer),
    });
    return this.moneyHere;
  }

  private async importDerivativesOnce(accountId: string): Promise<void> {
    await this.importOnce(DERIVATIVES_IMPORTED, accountId, async () => {
      importShardDerivatives(this.db, await derivativesBeforeShard(this.env.DB, accountId));
    });
  }

  private async importJobsOnce(accountId: string): Promise<void> {
    await this.importOnce(JOBS_IMPORTED, accountId, async () => {
      importShardJobs(this.db, await jobsBeforeShard(this.env.DB, accountId));
      importShardDeliveries(this.db, await deliveriesBeforeShard(this.env.DB, accountId));
    });
  }

  private async importIdempotencyOnce(accountId: string, now: number): Promise<void> {
    await this.importOnce(IDEMPOTENCY_IMPORTED, accountId, async () => {
      importRecords(this.db, await liveD1Records(this.env.DB, accountId, now));
    });
  }
}
