import { afterAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { photoLikePixels } from "../image/test-support/synthetic-images.ts";
import type { RawImage } from "./raw-image.ts";
import type { ScoreRequest } from "./score-worker.ts";
import { ssimulacra2 } from "./ssimulacra2.ts";
import { scoreOfTerms } from "./ssimulacra2-terms.ts";
import { jpegRoundTrip } from "./test-support/distortions.ts";
import { WorkerPool } from "../worker-pool/worker-pool.ts";

const replySchema = z.object({ id: z.number(), terms: z.array(z.array(z.array(z.array(z.number()).nullable()))).optional(), missing: z.literal(true).optional() });

const reference: RawImage = { data: new Uint8Array(photoLikePixels(160, 120, 5)), width: 160, height: 120, channels: 3 };
const candidate = await jpegRoundTrip(reference, 50);

describe("score worker", () => {
  const lane = new WorkerPool<Omit<ScoreRequest, "id">, z.infer<typeof replySchema>>({
    workerUrl: new URL("./score-worker.ts", import.meta.url),
    name: "score worker test",
    readReply: (message) => replySchema.parse(message),
  });
  afterAll(() => lane.close());

  it("scores against a reference it was sent once, by name, and says when it does not keep the one named", async () => {
    const named = { candidate, referenceKey: "search-1", share: "all" } as const;
    expect((await lane.run({ ...named, reference: null })).missing).toBe(true);
    const sent = await lane.run({ ...named, reference });
    const kept = await lane.run({ ...named, reference: null });
    expect(sent.missing).toBeUndefined();
    expect(kept.missing).toBeUndefined();
    expect(scoreOfTerms([kept.terms!])).toBe(scoreOfTerms([sent.terms!]));
    expect(scoreOfTerms([kept.terms!])).toBe(ssimulacra2(reference, candidate));
    // Kept per share: the coarser scales of the same search were never sent.
    expect((await lane.run({ ...named, share: "coarser", reference: null })).missing).toBe(true);
  });
});
