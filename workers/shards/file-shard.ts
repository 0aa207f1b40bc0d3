import { FEED_FILES, fileFeedMessage } from "../billing/ledger-feed.ts";
import { filesBeforeShard } from "../files/d1-files.ts";
import {
  expireShardFiles,
  findShardFile,
  importShardFiles,
  insertShardFile,
  listShardFiles,
  markFilesFed,
  markShardFileDeleted,
  markShardFileReady,
  setShardFileExpiry,
  shardDurableUsage,
  unfedFileChanges,
  type DurableUsage,
  type FileCursor,
  type ShardDeletedReason,
  type ShardFileRow,
} from "../files/shard-files.ts";
import { FEED_MESSAGES_PER_ALARM, Shard, type ShardEnv } from "./shard.ts";
import { FILE_SHARD_STEPS } from "./shard-migrations.ts";

const FILES_IMPORTED = "d1_files_imported";

/**
 * One account's file index, in a Durable Object of its own beside the account's shard
 * (./account-shard.ts): every transform miss of a stored file asks it whether the file is still
 * there, and every processing call records its result here, so the account's money and its files
 * are two objects' load rather than one's (docs/scale.md). Nothing here is money: a file's row and
 * the charge for a derivative of it need not change together, since the transform path checks the
 * file again after the derivative is kept (workers/transform/transform-source.ts).
 *
 * Found by the account id (`fileShard` in ./shard-stub.ts). First used, it imports the account's
 * rows from the shared database's `files`, once; its changes reach that report, which the expiry
 * sweep, the storage meter and the books read, through the ledger feed a moment later.
 */
export class FileShard extends Shard<ShardEnv> {
  constructor(ctx: DurableObjectState, env: ShardEnv) {
    super(ctx, env, FILE_SHARD_STEPS);
  }

  async insertFile(accountId: string, row: ShardFileRow): Promise<void> {
    await this.importOnce(accountId);
    insertShardFile(this.db, row);
    await this.feedSoon();
  }

  async file(accountId: string, fileId: string): Promise<ShardFileRow | null> {
    await this.importOnce(accountId);
    return findShardFile(this.db, fileId);
  }

  async markFileReady(accountId: string, fileId: string): Promise<ShardFileRow | null> {
    await this.importOnce(accountId);
    return this.fed(markShardFileReady(this.db, fileId));
  }

  async markFileDeleted(accountId: string, fileId: string, reason: ShardDeletedReason, now: number): Promise<ShardFileRow | null> {
    await this.importOnce(accountId);
    return this.fed(markShardFileDeleted(this.db, fileId, reason, now));
  }

  async setFileExpiry(accountId: string, fileId: string, expiresAt: number | null): Promise<ShardFileRow | null> {
    await this.importOnce(accountId);
    return this.fed(setShardFileExpiry(this.db, fileId, expiresAt));
  }

  /** Of the files, those live and past their expiry at `now`, marked deleted; the caller removes their objects. */
  async expireFiles(accountId: string, fileIds: string[], now: number): Promise<ShardFileRow[]> {
    await this.importOnce(accountId);
    const expired = expireShardFiles(this.db, fileIds, now);
    if (expired.length > 0) await this.feedSoon();
    return expired;
  }

  async files(accountId: string, limit: number, after: FileCursor | null, now: number): Promise<ShardFileRow[]> {
    await this.importOnce(accountId);
    return listShardFiles(this.db, limit, after, now);
  }

  async durableUsage(accountId: string, scope: "ready" | "reserved"): Promise<DurableUsage> {
    await this.importOnce(accountId);
    return shardDurableUsage(this.db, scope);
  }

  /** Feeds the files changed since the report last heard. */
  override async alarm(): Promise<void> {
    await this.feedUnfed(this.accountOf([FILES_IMPORTED]), (accountId) => this.feed(accountId));
  }

  /** Sends changed files, FEED_FILES a message; true when some are left for the next alarm. */
  private async feed(accountId: string): Promise<boolean> {
    for (let sent = 0; sent < FEED_MESSAGES_PER_ALARM; sent++) {
      const changes = unfedFileChanges(this.db, FEED_FILES);
      if (changes.length === 0) return false;
      await this.env.LEDGER_FEED.send(fileFeedMessage(accountId, changes));
      markFilesFed(this.db, changes.at(-1)!.seq);
    }
    return unfedFileChanges(this.db, 1).length > 0;
  }

  /** A row just changed, with the feed told to carry it. */
  private async fed(row: ShardFileRow | null): Promise<ShardFileRow | null> {
    if (row !== null) await this.feedSoon();
    return row;
  }

  private async importOnce(accountId: string): Promise<void> {
    await this.once(FILES_IMPORTED, accountId, async () => {
      importShardFiles(this.db, await filesBeforeShard(this.env.DB, accountId));
    });
  }
}
