import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { MIN_SEARCH_QUALITY, SIZE_MODELS, fitToBytes, qualityLadder, searchQualityBoundary, type Bracket, type Probe } from "./fit-to-bytes.ts";

// Size curves of the shapes encoders produce: log-linear in quality, steeper
// at the top (JPEG), flattening at the bottom (WebP), with a jump (WebP near 80).
const curves: Record<string, (q: number) => number> = {
  logLinear: (q) => 5_000 * Math.exp(0.03 * q),
  steepTop: (q) => 8_000 * Math.exp(0.02 * q + 0.0004 * Math.max(0, q - 60) ** 2),
  flatBottom: (q) => 20_000 + 600 * q + 40 * Math.max(0, q - 40) ** 2,
  jump: (q) => (q >= 80 ? 1.4 : 1) * 9_000 * Math.exp(0.018 * q),
};

const encoderFor = (curve: (q: number) => number) => {
  const calls: number[] = [];
  return { calls, encodeAt: (q: number) => (calls.push(q), Promise.resolve(new Uint8Array(Math.round(curve(q))))) };
};

const bestThatFits = (curve: (q: number) => number, maxBytes: number, ceiling: number) =>
  qualityLadder(ceiling)
    .reverse()
    .find((q) => Math.round(curve(q)) <= maxBytes);

describe("fitToBytes", () => {
  it("returns the ceiling after one encode when it already fits", async () => {
    const { calls, encodeAt } = encoderFor(curves.logLinear!);
    const result = await fitToBytes(encodeAt, 1_000_000, { ladder: qualityLadder(76), model: SIZE_MODELS.jpeg });
    expect(result).toMatchObject({ quality: 76, encodes: 1 });
    expect(calls).toEqual([76]);
  });

  it("reuses an encode already made at the ceiling", async () => {
    const { calls, encodeAt } = encoderFor(curves.logLinear!);
    const known = await encodeAt(76);
    calls.length = 0;
    const result = await fitToBytes(encodeAt, known.byteLength - 1, { ladder: qualityLadder(76), known, model: SIZE_MODELS.jpeg });
    expect(calls).not.toContain(76);
    expect(result.encodes).toBe(calls.length);
  });

  describe.each(Object.keys(curves))("on a %s curve", (name) => {
    const curve = curves[name]!;
    // Every format's prior on every curve: a wrong prior may cost encodes, never accuracy.
    it.each(Object.entries(SIZE_MODELS).flatMap(([format, model]) => [76, 90].map((ceiling) => ({ format, model, ceiling }))))(
      "returns the brute-force best, proved by an encode one step above it, $format prior, ceiling $ceiling",
      async ({ model, ceiling }) => {
        let encodes = 0;
        let searches = 0;
        for (const fraction of [0.95, 0.85, 0.7, 0.55, 0.4, 0.3, 0.2]) {
          const maxBytes = Math.round(curve(ceiling) * fraction);
          const best = bestThatFits(curve, maxBytes, ceiling);
          if (best === undefined) continue;
          const { calls, encodeAt } = encoderFor(curve);
          const result = await fitToBytes(encodeAt, maxBytes, { ladder: qualityLadder(ceiling), model });
          expect(result.bytes.byteLength).toBeLessThanOrEqual(maxBytes);
          expect(result.quality).toBe(best);
          if (best < ceiling) expect(calls).toContain(best + 1);
          expect(result.encodes).toBe(calls.length);
          encodes += result.encodes;
          searches++;
        }
        expect(searches).toBeGreaterThan(3);
        // A plain bisection of 10..ceiling needs 7 encodes after the ceiling's; these shapes (and
        // the wrong priors) are harsher than real encoders (see scripts/bench-image.ts: about 4).
        expect(encodes / searches).toBeLessThanOrEqual(6);
      },
    );
  });

  it("is exact from a ceiling of 100, where the quantiser scale bottoms out", async () => {
    for (const curve of Object.values(curves)) {
      for (const fraction of [0.9, 0.5, 0.25]) {
        const maxBytes = Math.round(curve(100) * fraction);
        const best = bestThatFits(curve, maxBytes, 100);
        if (best === undefined) continue;
        const result = await fitToBytes(encoderFor(curve).encodeAt, maxBytes, { ladder: qualityLadder(100), model: SIZE_MODELS.webp });
        expect(result.bytes.byteLength).toBeLessThanOrEqual(maxBytes);
        expect(result.quality).toBe(best);
      }
    }
  });

  it("searches a ladder of tiers exactly", async () => {
    const tiers: Record<number, number> = { 25: 40_000, 50: 140_000, 75: 330_000, 76: 670_000 };
    const encodeAt = (q: number) => Promise.resolve(new Uint8Array(tiers[q] ?? 0));
    await expect(fitToBytes(encodeAt, 400_000, { ladder: [25, 50, 75, 76], model: SIZE_MODELS.png })).resolves.toMatchObject({ quality: 75 });
    await expect(fitToBytes(encodeAt, 200_000, { ladder: [25, 50, 75, 76], model: SIZE_MODELS.png })).resolves.toMatchObject({ quality: 50 });
    await expect(fitToBytes(encodeAt, 40_000, { ladder: [25, 50, 75, 76], model: SIZE_MODELS.png })).resolves.toMatchObject({ quality: 25 });
  });

  it("throws max_bytes_unreachable with the smallest size reached", async () => {
    const curve = curves.flatBottom!;
    const error = await fitToBytes(encoderFor(curve).encodeAt, 1_000, { ladder: qualityLadder(76), model: SIZE_MODELS.avif }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProblemError);
    const problem = error as ProblemError;
    expect(problem.slug).toBe("max_bytes_unreachable");
    expect(problem.status).toBe(422);
    expect(problem.extensions).toMatchObject({
      max_bytes: 1_000,
      smallest_bytes: Math.round(curve(MIN_SEARCH_QUALITY)),
      lowest_quality_tried: MIN_SEARCH_QUALITY,
    });
  });
});

describe("searchQualityBoundary", () => {
  // The search knows nothing of bytes: here the predicate is "a score stays below 0.9" and the
  // model a deliberately wrong guess, which may cost probes but never the exact boundary.
  it.each([10, 37, 75, 100])("finds where any monotone predicate flips, whatever the model says (%s)", async (guess) => {
    const score = (q: number) => q / 100;
    const probed: number[] = [];
    const boundary = await searchQualityBoundary({
      ladder: qualityLadder(100),
      measure: (q) => (probed.push(q), Promise.resolve(score(q))),
      passes: (value) => value < 0.9,
      predict: () => guess,
    });
    expect(boundary.passing?.quality).toBe(89);
    expect(boundary.failing?.quality).toBe(90);
    expect(probed).toEqual(expect.arrayContaining([89, 90]));
    expect(boundary.measured).toBe(probed.length);
    // A plain bisection of 91 qualities takes 7.
    expect(probed.length).toBeLessThanOrEqual(16);
  });
});

describe("searchQualityBoundary's settling", () => {
  const ladder = Array.from({ length: 17 }, (_, i) => 4 + 6 * i);
  const search = (settles: (value: number) => boolean, known: Probe<number>[] = []) => {
    const probed: number[] = [];
    const boundary = searchQualityBoundary<number>({
      ladder,
      measure: (q) => (probed.push(q), Promise.resolve(q)),
      passes: (value) => value < 70,
      predict: () => 65,
      known,
      settles,
    });
    return { probed, boundary };
  };

  it("returns at the first measurement that settles, with the bracket as it stands", async () => {
    // The model's first probe (q64) passes; q70 would close the bracket, but q64 settles first.
    const { probed, boundary } = search((value) => value >= 60);
    const { settled, passing, failing, measured } = await boundary;
    expect(probed).toEqual([64]);
    expect([settled?.quality, passing?.quality, failing, measured]).toEqual([64, 64, null, 1]);
  });

  it("returns a known probe that settles without measuring", async () => {
    const { probed, boundary } = search((value) => value === 40, [{ quality: 40, value: 40, passes: true }]);
    expect((await boundary).settled?.quality).toBe(40);
    expect(probed).toEqual([]);
  });

  it("finds the exact boundary when nothing settles", async () => {
    const { boundary } = search(() => false);
    const { settled, passing, failing } = await boundary;
    expect([settled, passing?.quality, failing?.quality]).toEqual([null, 64, 70]);
  });
});

describe("searchQualityBoundary's bisection", () => {
  // Auto quality's sample ladder: every other rung of 3 qualities, 17 rungs.
  const ladder = Array.from({ length: 17 }, (_, i) => 4 + 6 * i);
  const aim = 70;

  // A score model as auto quality's (quality/predict-quality.ts) in a straight line: through the
  // bracket once there is one, else through the two lowest probes that reach the aim, else from the
  // one probe along a prior slope, 1.5 qualities past the aim; each move at most 12 qualities.
  const lineModel =
    (priorSlope: number) =>
    ({ passing, failing, previousFailing }: Bracket<number>): number => {
      const along = (from: Probe<number>, slope: number) => from.quality + (aim - from.value) / slope;
      let predicted: number;
      if (passing !== null && failing !== null) predicted = along(passing, (failing.value - passing.value) / (failing.quality - passing.quality));
      else if (failing !== null && previousFailing !== null) predicted = along(failing, (previousFailing.value - failing.value) / (previousFailing.quality - failing.quality)) - 1.5;
      else if (failing !== null) predicted = along(failing, priorSlope) - 1.5;
      else return 70;
      const nearest = (passing ?? failing).quality;
      return Math.min(nearest + 12, Math.max(nearest - 12, predicted));
    };

  const searchFor = (score: (q: number) => number, predict: (bracket: Bracket<number>) => number, on = ladder) => {
    const probed: number[] = [];
    const search = searchQualityBoundary<number>({
      ladder: on,
      measure: (q) => (probed.push(q), Promise.resolve(score(q))),
      passes: (value) => value < aim,
      predict,
    });
    return { probed, search };
  };

  it("follows the model down a curve flatter than it expects, where it falls short on the same side twice, instead of jumping below the answer", async () => {
    // Scores 78 at q70 where the model expects 70, and rises 0.3 a quality where it expects 1:
    // the aim lies between q40 (69.0) and q46 (70.8).
    const { probed, search } = searchFor((q) => 57 + 0.3 * q, lineModel(1));
    const boundary = await search;
    expect([boundary.passing?.quality, boundary.failing?.quality]).toEqual([40, 46]);
    expect(probed.slice(0, 2)).toEqual([70, 58]);
    // Bisecting after those two went to q28 and took 5 probes.
    expect(probed.length).toBeLessThanOrEqual(4);
    expect(Math.min(...probed)).toBe(40);
  });

  it("bisects once the model is surprised in both directions", async () => {
    // First too low (q21 passes where it expected a miss), then too high (q79 misses).
    const predict = ({ passing }: Bracket<number>) => (passing === null ? 20.9 : 79.1);
    const { probed, search } = searchFor((q) => q, predict, qualityLadder(100));
    const boundary = await search;
    expect([boundary.passing?.quality, boundary.failing?.quality]).toEqual([69, 70]);
    expect(probed.slice(0, 3)).toEqual([21, 79, 50]);
  });

  it("bisects after two surprises a model whose prediction ignores the probes that contradict it", async () => {
    const { probed, search } = searchFor((q) => q, () => 100, qualityLadder(100));
    await search;
    expect(probed.slice(0, 3)).toEqual([100, 99, 54]);
  });

  it("reaches a boundary at the ladder's bottom, behind a model that creeps one rung a probe, in 9 probes", async () => {
    const predict = ({ failing }: Bracket<number>) => (failing?.quality ?? 101) - 1;
    const { probed, search } = searchFor(() => 100, predict);
    const boundary = await search;
    expect([boundary.passing, boundary.failing?.quality]).toEqual([null, 4]);
    // Four creeping probes, then halvings with a model probe between: two more than bisecting
    // after two surprises (7), the bound the comment on OPEN_SIDE_SURPRISES states.
    expect(probed.slice(0, 4)).toEqual([100, 94, 88, 82]);
    expect(probed.length).toBeLessThanOrEqual(9);
  });
});
