import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { eq } from "drizzle-orm";
import type { FeedQueues } from "../billing/feed-queues.ts";
import { FEED_DELAY_MS } from "../billing/ledger-feed.ts";
import type { ShardDb } from "./shard-db.ts";
import { migrateShard } from "./shard-migrations.ts";
import * as shardSchema from "./shard-schema.ts";

// After a send the queue refused, the next try.
const FEED_RETRY_MS = 30_000;
/** Messages a shard sends per alarm; a longer backlog is sent at the next, straight after. */
export const FEED_MESSAGES_PER_ALARM = 10;

/** What a shard reads besides its own storage: the shared database it imports from, and the feed it reports to. */
export type ShardEnv = FeedQueues & {
  DB: D1Database;
  LEDGER_FEED_DELAY_MS?: string;
};

/**
 * What every kind of account shard shares: its own SQLite database brought up to its schema's last
 * step, the one-time imports of what the shared database held for its account (each recorded as
 * a fact), and the alarm that feeds its changes to the shared database's reports.
 */
export abstract class Shard<Env extends ShardEnv> extends DurableObject<Env> {
  protected readonly db: ShardDb;
  private readonly imported = new Set<string>();
  private feedDue = false;

  constructor(ctx: DurableObjectState, env: Env, steps: readonly string[][]) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema: shardSchema });
    void ctx.blockConcurrencyWhile(() => Promise.resolve(migrateShard(ctx.storage, steps)));
  }

  /** The account a shard serves, once it has imported anything (the alarm knows no caller). */
  protected accountOf(facts: readonly string[]): string | null {
    for (const name of facts) {
      const value = this.fact(name);
      if (value !== null) return value;
    }
    return null;
  }

  /**
   * Sends what the shared reports have not heard (`send` says whether a backlog is left for the next
   * alarm). A change made while it sends asks for another alarm; a send the queue refuses is tried
   * again later, for as long as it takes, so nothing unfed is lost (an alarm that throws is retried
   * only a few times).
   */
  protected async feedUnfed(accountId: string | null, send: (accountId: string) => Promise<boolean>): Promise<void> {
    this.feedDue = false;
    if (accountId === null) return;
    let backlog = false;
    try {
      backlog = await send(accountId);
    } catch (error) {
      console.error(`ledger feed of ${accountId}: ${error instanceof Error ? error.message : String(error)}; trying again`);
      await this.wakeAt(Date.now() + FEED_RETRY_MS);
    }
    if (backlog) await this.feedSoon(0);
  }

  protected async feedSoon(delay = this.feedDelay()): Promise<void> {
    if (this.feedDue && delay > 0) return;
    this.feedDue = true;
    await this.wakeAt(Date.now() + delay);
  }

  /** LEDGER_FEED_DELAY_MS overrides FEED_DELAY_MS: the edge's tests feed only when a test runs the alarm. */
  private feedDelay(): number {
    const configured = Number(this.env.LEDGER_FEED_DELAY_MS);
    return this.env.LEDGER_FEED_DELAY_MS !== undefined && Number.isFinite(configured) && configured >= 0 ? configured : FEED_DELAY_MS;
  }

  /** Sets the alarm to `at` unless it is set sooner. */
  protected async wakeAt(at: number | null): Promise<void> {
    if (at === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  /** Runs `work` once in the shard's life; no other call of this shard runs while it reads the shared database. */
  protected async once(fact: string, accountId: string, work: () => Promise<void>): Promise<void> {
    if (this.imported.has(fact) || this.fact(fact) !== null) {
      this.imported.add(fact);
      return;
    }
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.fact(fact) !== null) return;
      await work();
      this.db.insert(shardSchema.shardFacts).values({ name: fact, value: accountId }).run();
    });
    this.imported.add(fact);
  }

  /** Records a fact of the shard's own (a fact already recorded keeps its value). */
  protected noteFact(name: string, value: string): void {
    this.db.insert(shardSchema.shardFacts).values({ name, value }).onConflictDoNothing().run();
  }

  protected fact(name: string): string | null {
    return this.db.select().from(shardSchema.shardFacts).where(eq(shardSchema.shardFacts.name, name)).get()?.value ?? null;
  }
}
