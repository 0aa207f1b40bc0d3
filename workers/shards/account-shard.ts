import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { eq } from "drizzle-orm";
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
  type ShardDb,
} from "../idempotency/shard-idempotency-records.ts";
import { migrateShard } from "./shard-migrations.ts";
import * as shardSchema from "./shard-schema.ts";

const IMPORTED_FACT = "d1_idempotency_imported";

/** What a shard reads besides its own storage: the shared database it imports from once. */
interface AccountShardEnv {
  DB: D1Database;
}

/**
 * One account's own state, in a Durable Object with its own SQLite database: the account's calls
 * run here one at a time, and never queue behind another account's, so the ceiling grows with the
 * number of accounts instead of being one shared database's. It keeps the account's idempotency
 * records (the rest of the account's hot state follows, docs/scale.md).
 *
 * An account's shard is found by the account id (`accountShard` in ./shard-stub.ts). A shard first used by this
 * deployment imports the account's live records from the shared database once, before it answers
 * anything, so a retry of a request made before the move still finds its record.
 */
export class AccountShard extends DurableObject<AccountShardEnv> {
  private readonly db: ShardDb;
  private importDone = false;

  constructor(ctx: DurableObjectState, env: AccountShardEnv) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema: shardSchema });
    void ctx.blockConcurrencyWhile(() => Promise.resolve(migrateShard(ctx.storage)));
  }

  async claimIdempotencyKey(accountId: string, name: RecordName, fingerprint: string, now: number): Promise<boolean> {
    await this.importOnce(accountId, now);
    const claimed = claimRecord(this.db, name, fingerprint, now);
    if (claimed) await this.pruneLater();
    return claimed;
  }

  async idempotencyRecord(accountId: string, name: RecordName): Promise<IdempotencyRecord | null> {
    await this.importOnce(accountId, Date.now());
    return findRecord(this.db, name);
  }

  completeIdempotencyKey(name: RecordName, response: { status: number; headers: Record<string, string>; body: string }): void {
    completeRecord(this.db, name, response);
  }

  releaseIdempotencyKey(name: RecordName): void {
    releaseRecord(this.db, name);
  }

  /** Drops expired records and wakes again when the next one expires. */
  override async alarm(): Promise<void> {
    pruneRecords(this.db, Date.now());
    const next = nextExpiry(this.db);
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  private async pruneLater(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) !== null) return;
    const next = nextExpiry(this.db);
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  /** The one-time import; no other call of this shard runs while it reads the shared database. */
  private async importOnce(accountId: string, now: number): Promise<void> {
    if (this.imported()) return;
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.imported()) return;
      importRecords(this.db, await liveD1Records(this.env.DB, accountId, now));
      this.db.insert(shardSchema.shardFacts).values({ name: IMPORTED_FACT, value: accountId }).run();
    });
  }

  private imported(): boolean {
    this.importDone ||= this.db.select().from(shardSchema.shardFacts).where(eq(shardSchema.shardFacts.name, IMPORTED_FACT)).get() !== undefined;
    return this.importDone;
  }
}
