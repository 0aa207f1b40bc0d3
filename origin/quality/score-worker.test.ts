import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { photoLikePixels } from "../image/test-support/synthetic-images.ts";
import { scoreReplySchema, type ScoreReply } from "./perceptual-score.ts";
import type { RawImage } from "./raw-image.ts";
import type { ScoreRequest } from "./score-worker.ts";
import { ssimulacra2 } from "./ssimulacra2.ts";
import { scoreOfTerms, type ScaleTerms } from "./ssimulacra2-terms.ts";
import { jpegRoundTrip } from "./test-support/distortions.ts";
import { WorkerPool } from "../worker-pool/worker-pool.ts";

const reference: RawImage = { data: new Uint8Array(photoLikePixels(160, 120, 5)), width: 160, height: 120, channels: 3 };
const candidate = await jpegRoundTrip(reference, 50);

function termsOf(reply: ScoreReply): ScaleTerms {
  if (!("terms" in reply)) throw new Error(`a score was answered without terms: ${JSON.stringify(reply)}`);
  return reply.terms;
}

describe("score worker", () => {
  const lane = new WorkerPool<Omit<ScoreRequest, "id">, ScoreReply>({
    workerUrl: new URL("./score-worker.ts", import.meta.url),
    name: "score worker test",
    readReply: (message) => scoreReplySchema.parse(message),
  });
  afterAll(() => lane.close());

  it("scores against a reference it was sent once, by name, and says when it does not keep the one named", async () => {
    const named = { candidate, referenceKey: "search-1", share: "all" } as const;
    expect(await lane.run({ ...named, reference: null })).toMatchObject({ missing: true });
    const sent = termsOf(await lane.run({ ...named, reference }));
    const kept = termsOf(await lane.run({ ...named, reference: null }));
    expect(scoreOfTerms([kept])).toBe(scoreOfTerms([sent]));
    expect(scoreOfTerms([kept])).toBe(ssimulacra2(reference, candidate));
    // Kept per share: the coarser scales of the same search were never sent.
    expect(await lane.run({ ...named, share: "coarser", reference: null })).toMatchObject({ missing: true });
  });

  it("decodes a WebP candidate itself and scores it as its decoded pixels", async () => {
    const webp = new Uint8Array(await sharp(reference.data, { raw: { width: 160, height: 120, channels: 3 } }).webp({ quality: 40 }).toBuffer());
    const decoded: RawImage = { data: new Uint8Array(await sharp(webp).removeAlpha().raw().toBuffer()), width: 160, height: 120, channels: 3 };
    const terms = termsOf(await lane.run({ reference, candidate: { webp: [webp], tile: null, width: 160, height: 120, channels: 3 }, referenceKey: "search-2", share: "all" }));
    expect(scoreOfTerms([terms])).toBe(ssimulacra2(reference, decoded));
    const misnamed = await lane.run({ reference, candidate: { webp: [webp], tile: null, width: 120, height: 160, channels: 3 }, share: "all" });
    expect("error" in misnamed ? misnamed.error : "").toMatch(/not 120x160/);
  });
});
