import { feedQueueOf } from "../billing/feed-queues.ts";
import { FEED_FILES, FEED_ORIGIN_OBJECTS, fileFeedMessage, originObjectFeedMessage } from "../billing/ledger-feed.ts";
import { filesBeforeShard } from "../files/d1-files.ts";
import { fileShardOf, type FileShardName } from "../files/file-shard-index.ts";
import { originObjectsBeforeShard, originsBeforeShard } from "../origins/d1-origins.ts";
import {
  deleteShardOrigin,
  dropShardOriginObjects,
  findShardOrigin,
  findShardOriginById,
  findShardOriginObject,
  importShardOrigins,
  insertShardOrigin,
  listShardOrigins,
  markOriginObjectsFed,
  markShardOriginObjectsStale,
  refreshShardOriginObject,
  saveShardOriginObject,
  shardOriginPaths,
  unfedOriginObjectChanges,
  type DroppedObject,
  type PathSelection,
  type ShardOriginObjectRow,
  type ShardOriginRow,
} from "../origins/shard-origins.ts";
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
const ORIGINS_IMPORTED = "d1_origins_imported";

/**
 * One account's sources: its file index and its remote origins with what each path held, in a
 * Durable Object of its own beside the account's shard (./account-shard.ts). Every transform miss
 * asks it whether the file or the origin path is still there, and every processing call records
 * its result here, so the account's money and its sources are two objects' load rather than one's
 * (docs/scale.md). Nothing here is money: a file's row and
 * the charge for a derivative of it need not change together, since the transform path checks the
 * file again after the derivative is kept (workers/transform/transform-source.ts).
 *
 * Found by the account id (`fileShard` in ./shard-stub.ts). First used, it imports the account's
 * rows from the shared database's `files` (and, for origins, `origins` and `origin_objects`),
 * once; its changes reach those reports, which the expiry sweep, the storage meter and the books
 * read, through the ledger feed a moment later.
 */
export class FileShard extends Shard<ShardEnv> {
  constructor(ctx: DurableObjectState, env: ShardEnv) {
    super(ctx, env, FILE_SHARD_STEPS);
  }

  async insertFile(shard: FileShardName, row: ShardFileRow): Promise<void> {
    await this.importOnce(shard);
    insertShardFile(this.db, row);
    await this.feedSoon();
  }

  async file(shard: FileShardName, fileId: string): Promise<ShardFileRow | null> {
    await this.importOnce(shard);
    return findShardFile(this.db, fileId);
  }

  async markFileReady(shard: FileShardName, fileId: string): Promise<ShardFileRow | null> {
    await this.importOnce(shard);
    return this.fed(markShardFileReady(this.db, fileId));
  }

  async markFileDeleted(shard: FileShardName, fileId: string, reason: ShardDeletedReason, now: number): Promise<ShardFileRow | null> {
    await this.importOnce(shard);
    return this.fed(markShardFileDeleted(this.db, fileId, reason, now));
  }

  async setFileExpiry(shard: FileShardName, fileId: string, expiresAt: number | null): Promise<ShardFileRow | null> {
    await this.importOnce(shard);
    return this.fed(setShardFileExpiry(this.db, fileId, expiresAt));
  }

  /** Of the files, those live and past their expiry at `now`, marked deleted; the caller removes their objects. */
  async expireFiles(shard: FileShardName, fileIds: string[], now: number): Promise<ShardFileRow[]> {
    await this.importOnce(shard);
    const expired = expireShardFiles(this.db, fileIds, now);
    if (expired.length > 0) await this.feedSoon();
    return expired;
  }

  async files(shard: FileShardName, limit: number, after: FileCursor | null, now: number): Promise<ShardFileRow[]> {
    await this.importOnce(shard);
    return listShardFiles(this.db, limit, after, now);
  }

  async durableUsage(shard: FileShardName, scope: "ready" | "reserved"): Promise<DurableUsage> {
    await this.importOnce(shard);
    return shardDurableUsage(this.db, scope);
  }

  /** False when the account already has an origin of that name. */
  async createOrigin(accountId: string, row: ShardOriginRow): Promise<boolean> {
    await this.importOriginsOnce(accountId);
    return insertShardOrigin(this.db, row);
  }

  async origins(accountId: string): Promise<ShardOriginRow[]> {
    await this.importOriginsOnce(accountId);
    return listShardOrigins(this.db);
  }

  async origin(accountId: string, name: string): Promise<ShardOriginRow | null> {
    await this.importOriginsOnce(accountId);
    return findShardOrigin(this.db, name);
  }

  async deleteOrigin(accountId: string, name: string): Promise<ShardOriginRow | null> {
    await this.importOriginsOnce(accountId);
    return deleteShardOrigin(this.db, name);
  }

  /** The origin by name and its path's row, for a transform miss in one call; null when there is no such origin. */
  async originPath(accountId: string, name: string, path: string): Promise<{ origin: ShardOriginRow; object: ShardOriginObjectRow | null } | null> {
    await this.importOriginsOnce(accountId);
    const origin = findShardOrigin(this.db, name);
    return origin && { origin, object: findShardOriginObject(this.db, origin.id, path) };
  }

  async saveOriginObject(accountId: string, row: ShardOriginObjectRow): Promise<void> {
    await this.importOriginsOnce(accountId);
    saveShardOriginObject(this.db, row);
    await this.feedSoon();
  }

  async refreshOriginObject(accountId: string, originId: string, path: string, version: string, lifetimeSeconds: number, freshUntil: number, now: number): Promise<void> {
    await this.importOriginsOnce(accountId);
    refreshShardOriginObject(this.db, originId, path, version, lifetimeSeconds, freshUntil, now);
    await this.feedSoon();
  }

  async originVersion(accountId: string, originId: string, path: string): Promise<string | null> {
    await this.importOriginsOnce(accountId);
    return findShardOriginObject(this.db, originId, path)?.version ?? null;
  }

  async originPaths(accountId: string, originId: string): Promise<{ name: string; paths: string[] } | null> {
    await this.importOriginsOnce(accountId);
    const origin = findShardOriginById(this.db, originId);
    return origin && { name: origin.name, paths: shardOriginPaths(this.db, originId) };
  }

  async dropOriginObjects(accountId: string, originId: string, which: PathSelection, now: number): Promise<DroppedObject[]> {
    await this.importOriginsOnce(accountId);
    const dropped = dropShardOriginObjects(this.db, originId, which, now);
    if (dropped.length > 0) await this.feedSoon();
    return dropped;
  }

  async markOriginObjectsStale(accountId: string, originId: string, which: PathSelection): Promise<string[]> {
    await this.importOriginsOnce(accountId);
    const kept = markShardOriginObjectsStale(this.db, originId, which);
    // A remembered 404 made stale is a change too, though it keeps no original.
    if (unfedOriginObjectChanges(this.db, 1).length > 0) await this.feedSoon();
    return kept;
  }

  /** Feeds the files and origin paths changed since the reports last heard. */
  override async alarm(): Promise<void> {
    await this.feedUnfed(this.accountOf([FILES_IMPORTED, ORIGINS_IMPORTED]), (accountId) => this.feed(accountId));
  }

  /** Sends changed files, FEED_FILES a message, then changed origin paths; true when some are left for the next alarm. */
  private async feed(accountId: string): Promise<boolean> {
    for (let sent = 0; sent < FEED_MESSAGES_PER_ALARM; sent++) {
      const files = unfedFileChanges(this.db, FEED_FILES);
      if (files.length > 0) {
        await feedQueueOf(this.env, accountId).send(fileFeedMessage(accountId, files));
        markFilesFed(this.db, files.at(-1)!.seq);
        continue;
      }
      const paths = unfedOriginObjectChanges(this.db, FEED_ORIGIN_OBJECTS);
      if (paths.length === 0) return false;
      await feedQueueOf(this.env, accountId).send(originObjectFeedMessage(accountId, paths));
      markOriginObjectsFed(this.db, paths.at(-1)!.seq);
    }
    return unfedFileChanges(this.db, 1).length + unfedOriginObjectChanges(this.db, 1).length > 0;
  }

  /** A row just changed, with the feed told to carry it. */
  private async fed(row: ShardFileRow | null): Promise<ShardFileRow | null> {
    if (row !== null) await this.feedSoon();
    return row;
  }

  /** The account's files from before it had file shards are all the first shard's (their ids name none). */
  private async importOnce(shard: FileShardName): Promise<void> {
    await this.once(FILES_IMPORTED, shard.accountId, async () => {
      const before = await filesBeforeShard(this.env.DB, shard.accountId);
      importShardFiles(this.db, before.filter((row) => fileShardOf(row.id) === shard.index));
    });
  }

  private async importOriginsOnce(accountId: string): Promise<void> {
    await this.once(ORIGINS_IMPORTED, accountId, async () => {
      importShardOrigins(this.db, await originsBeforeShard(this.env.DB, accountId), await originObjectsBeforeShard(this.env.DB, accountId));
    });
  }
}
