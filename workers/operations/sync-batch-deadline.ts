// A synchronous batch answers within SYNC_BATCH_DEADLINE_MS of its start. Each item has its own
// deadlines (its URL download, its origin call), but a batch runs a few items at a time, so ten
// items at their worst would take three rounds of those: minutes, long past what a proxy in front
// of the edge waits for a reply (Cloudflare's is 100 s), after items were charged for a reply the
// client never sees. So an item starts only while, at its own worst, it still ends in time; a
// later item fails, uncharged, and the batch answers with what it has.
import { IMAGE_SOURCE_MAX_BYTES } from "../../contracts/image-options.ts";
import { originCallTimeoutMs } from "../../contracts/limits/deadlines.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { URL_TIMEOUT_MS } from "../sources/resolve-source.ts";

export const SYNC_BATCH_DEADLINE_MS = 90_000;

/** The longest one item takes once started: the download of a URL source, then the origin call at the largest source. */
export const ITEM_LONGEST_MS = URL_TIMEOUT_MS + originCallTimeoutMs("/image/process", IMAGE_SOURCE_MAX_BYTES);

/** How long after the batch's start an item may still start. */
export const LAST_ITEM_START_MS = SYNC_BATCH_DEADLINE_MS - ITEM_LONGEST_MS;

/** Refuses an item that would start too late, before it fetches, computes or charges anything. */
export function assertItemMayStart(batchStartedAt: number, now: number): void {
  if (now - batchStartedAt <= LAST_ITEM_START_MS) return;
  throw new ProblemError(
    "processing_timeout",
    `This image had not started ${LAST_ITEM_START_MS / 1000} s into the batch, and a synchronous batch answers within ${SYNC_BATCH_DEADLINE_MS / 1000} s. Send it again, or send the batch with mode: "async". Not charged.`,
  );
}
