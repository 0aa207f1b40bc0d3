import { afterAll, describe, expect, it } from "vitest";
import { photoLikePixels } from "../image/test-support/synthetic-images.ts";
import { PerceptualScorePool, perceptualScore, perceptualScorer } from "./perceptual-score.ts";
import type { RawImage } from "./raw-image.ts";
import { ssimulacra2 } from "./ssimulacra2.ts";
import { jpegRoundTrip } from "./test-support/distortions.ts";

const width = 400;
const height = 267;
const reference: RawImage = { data: new Uint8Array(photoLikePixels(width, height, 3)), width, height, channels: 3 };
const decodedJpegs = await Promise.all([85, 55, 25].map((quality) => jpegRoundTrip(reference, quality)));

describe("perceptual score in worker threads", () => {
  const pool = new PerceptualScorePool({ size: 2 });
  afterAll(() => pool.close());

  it("returns, for decoded JPEG pixels, exactly the score of the direct call", async () => {
    const direct = decodedJpegs.map((candidate) => ssimulacra2(reference, candidate));
    expect(await Promise.all(decodedJpegs.map((candidate) => pool.score(reference, candidate)))).toEqual(direct);
    expect(await perceptualScore(reference, decodedJpegs[0]!)).toBe(direct[0]);
    expect(direct[0]).toBeGreaterThan(direct[1]!);
  });

  it("scores candidates against a kept reference exactly as the direct call does, on either worker", async () => {
    const scorer = pool.referenceScorer(reference);
    const direct = decodedJpegs.map((candidate) => ssimulacra2(reference, candidate));
    expect(await Promise.all(decodedJpegs.map((candidate) => scorer(candidate)))).toEqual(direct);
    // Twice over, now from the kept reference, interleaved with another search's reference.
    const other = await jpegRoundTrip(decodedJpegs[0]!, 40);
    const otherScorer = pool.referenceScorer(other);
    for (const candidate of decodedJpegs) {
      expect(await scorer(candidate)).toBe(ssimulacra2(reference, candidate));
      expect(await otherScorer(candidate)).toBe(ssimulacra2(other, candidate));
    }
    expect(await perceptualScorer(reference)(decodedJpegs[1]!)).toBe(direct[1]);
  });

  it("prepares a reference ahead of its candidates, then scores them exactly as the direct call does", async () => {
    const scorer = pool.referenceScorer(reference);
    await scorer.prepare();
    for (const candidate of decodedJpegs) expect(await scorer(candidate)).toBe(ssimulacra2(reference, candidate));
    const tiny: RawImage = { data: new Uint8Array(4 * 4 * 3), width: 4, height: 4, channels: 3 };
    await expect(pool.referenceScorer(tiny).prepare()).rejects.toThrow(/at least 8x8/);
  });

  it("splits a scorer's work across both lanes, the finest scale on one and the coarser ones on the other, for exactly the direct call's scores", async () => {
    const scorer = pool.referenceScorer(reference, { split: true });
    await scorer.prepare();
    const direct = decodedJpegs.map((candidate) => ssimulacra2(reference, candidate));
    expect(await Promise.all(decodedJpegs.map((candidate) => scorer(candidate)))).toEqual(direct);
    // Its coarser share, prepared with the first candidate, is kept for the next ones.
    for (const candidate of decodedJpegs) expect(await scorer(candidate)).toBe(ssimulacra2(reference, candidate));
    // A pool of one lane scores the same without splitting.
    const single = new PerceptualScorePool({ size: 1 });
    expect(await single.referenceScorer(reference, { split: true })(decodedJpegs[0]!)).toBe(direct[0]);
    await single.close();
  });

  it("prepares a split scorer's coarser scales ahead on their own lane, when asked, for the direct call's scores", async () => {
    const scorer = pool.referenceScorer(reference, { split: true });
    await Promise.all([scorer.prepare(), scorer.prepareOtherLane()]);
    for (const candidate of decodedJpegs) expect(await scorer(candidate)).toBe(ssimulacra2(reference, candidate));
    const tiny: RawImage = { data: new Uint8Array(4 * 4 * 3), width: 4, height: 4, channels: 3 };
    await expect(pool.referenceScorer(tiny, { split: true }).prepareOtherLane()).rejects.toThrow(/at least 8x8/);
    // A scorer on one lane has no other lane to prepare.
    await expect(pool.referenceScorer(tiny).prepareOtherLane()).resolves.toBeUndefined();
  });

  it("sends a reference again when its worker no longer keeps it, and scores as the direct call does", async () => {
    const single = new PerceptualScorePool({ size: 1 });
    const scorer = single.referenceScorer(reference);
    expect(await scorer(decodedJpegs[0]!)).toBe(ssimulacra2(reference, decodedJpegs[0]!));
    // Two other searches' references of 1.9 MP (about 63 MB kept each) push it out of the worker's 120 MB.
    const large: RawImage = { data: new Uint8Array(1900 * 1000 * 3).fill(128), width: 1900, height: 1000, channels: 3 };
    for (let search = 0; search < 2; search++) await single.referenceScorer(large).prepare();
    expect(await scorer(decodedJpegs[1]!)).toBe(ssimulacra2(reference, decodedJpegs[1]!));
    await single.close();
  });

  it("leaves the event loop free while it scores", async () => {
    let turnsWhileScoring = 0;
    let scoring = true;
    const turn = () => {
      if (!scoring) return;
      turnsWhileScoring++;
      setImmediate(turn);
    };
    setImmediate(turn);
    await pool.score(reference, decodedJpegs[2]!);
    scoring = false;
    expect(turnsWhileScoring).toBeGreaterThan(1);
  });

  it("rejects a pair the metric cannot score, and keeps serving", async () => {
    const smaller: RawImage = { ...reference, height: height - 1, data: reference.data.subarray(0, width * (height - 1) * 3) };
    await expect(pool.score(reference, smaller)).rejects.toThrow(/differ in size/);
    expect(await pool.score(reference, reference)).toBe(100);
    await expect(pool.referenceScorer(reference)(smaller)).rejects.toThrow(/differ in size/);
  });
});
