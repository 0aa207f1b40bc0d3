import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { requestChargeKey } from "../billing/charge-key.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { imageOptionsSchema } from "../../contracts/image-options.ts";
import { prices } from "../../contracts/pricing.ts";
import { seedCaller } from "../test-support/api.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { runBatch } from "./image-batch.ts";
import { assertItemMayStart, ITEM_LONGEST_MS, LAST_ITEM_START_MS, SYNC_BATCH_DEADLINE_MS } from "./sync-batch-deadline.ts";
import { balanceOf } from "../test-support/account-books.ts";

describe("the synchronous batch's deadline", () => {
  it("lets an item start only while its own worst case still ends within the batch's deadline", () => {
    expect(LAST_ITEM_START_MS + ITEM_LONGEST_MS).toBe(SYNC_BATCH_DEADLINE_MS);
    expect(LAST_ITEM_START_MS).toBeGreaterThan(0);
    expect(() => assertItemMayStart(1_000, 1_000 + LAST_ITEM_START_MS)).not.toThrow();
    expect(() => assertItemMayStart(1_000, 1_001 + LAST_ITEM_START_MS)).toThrow(/synchronous batch answers within 90 s/);
  });

  it("fails, uncharged, every item that would start past it, and answers with the items that ran", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const photo = { base64: encodeBase64(await generatedBytes("landscape-1.jpg")) };
    const options = imageOptionsSchema.parse({ width: 60, format: "jpeg" });
    const items = ["a", "b", "c", "d", "e", "f"].map((ref) => ({ ref, source: photo, options }));
    // The batch reads its clock once to start, then once as each item starts: four start at once
    // (the batch's concurrency), and the clock has passed the last start when the fifth asks.
    let reads = 0;
    const clock = () => (reads++ <= 4 ? 0 : LAST_ITEM_START_MS + 1);

    const result = await runBatch(env, { accountId: caller.accountId, items, chargeKey: requestChargeKey("req_deadline"), baseUrl: "https://api.example.test", requestId: "req_deadline" }, clock);

    expect(result.results.map((r) => [r.ref, r.status])).toEqual([["a", "ok"], ["b", "ok"], ["c", "ok"], ["d", "ok"], ["e", "failed"], ["f", "failed"]]);
    for (const late of result.results.slice(4)) {
      expect(late).toMatchObject({ status: "failed", error: { status: 422, type: expect.stringContaining("processing_timeout") as unknown } });
    }
    expect(result.stats).toMatchObject({ images: 6, succeeded: 4, failed: 2 });
    expect(result.billing.charged_micros).toBe(4 * prices.image);
    expect(await balanceOf(caller.accountId)).toBe(100_000 - 4 * prices.image);
  });
});
