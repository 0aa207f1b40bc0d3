import { describe, expect, it } from "vitest";
import { BACKOFF_BASE_MS, InstanceChooser, LOAD_MEMORY_MS } from "./instance-chooser.ts";

/** A clock the test moves, and a random source that yields `draws` in turn (then 0). */
function fixture(draws: number[] = []) {
  let now = 1_000_000;
  const queue = [...draws];
  const chooser = new InstanceChooser({ now: () => now, random: () => queue.shift() ?? 0 });
  return { chooser, advance: (ms: number) => (now += ms) };
}

const idle = { busy: 0, queued: 0, size: 4 };
const busy = { busy: 4, queued: 3, size: 4 };

function answer(chooser: InstanceChooser, key: string, load = idle) {
  chooser.started(key);
  chooser.answered(key, load);
}

describe("the origin instance chooser", () => {
  it("picks the less loaded of the two it draws, whichever is drawn first", () => {
    for (const draws of [[0, 0], [0.5, 0.9]]) {
      // [0, 0] draws a then b; [0.5, 0.9] draws b then a (of a, b, c).
      const { chooser } = fixture(draws);
      answer(chooser, "a", busy);
      answer(chooser, "b", idle);
      expect(chooser.choose(["a", "b", "c"])).toBe("b");
    }
  });

  it("counts its own calls in flight, so a burst spreads instead of piling on the last idle reply", () => {
    const { chooser } = fixture([0, 0, 0, 0]);
    answer(chooser, "a");
    answer(chooser, "b");
    chooser.started("a");
    expect(chooser.choose(["a", "b"])).toBe("b");
    chooser.started("b");
    chooser.started("b");
    expect(chooser.choose(["a", "b"])).toBe("a");
  });

  it("forgets a declared load after a while, when other isolates' work there has likely moved on", () => {
    const { chooser, advance } = fixture([0, 0, 0, 0]);
    answer(chooser, "a", busy);
    answer(chooser, "b", { busy: 1, queued: 0, size: 4 });
    expect(chooser.choose(["a", "b"])).toBe("b");
    advance(LOAD_MEMORY_MS + 1);
    // Both now score their in-flight calls alone (none): the first drawn wins the tie.
    expect(chooser.choose(["a", "b"])).toBe("a");
  });

  it("skips an instance that failed for its back-off, then tries it again with one call", () => {
    const { chooser, advance } = fixture();
    answer(chooser, "a");
    answer(chooser, "b", busy);
    chooser.started("a");
    chooser.failed("a");
    for (let i = 0; i < 20; i++) expect(chooser.choose(["a", "b"])).toBe("b");
    expect(chooser.view("a")).toMatchObject({ failures: 1, backoff_ms: BACKOFF_BASE_MS });
    advance(BACKOFF_BASE_MS);
    expect(chooser.choose(["a", "b"])).toBe("a");
    chooser.started("a");
    // While that one call is out, the instance is not yet trusted with more.
    expect(chooser.choose(["a", "b"])).toBe("b");
    chooser.answered("a", idle);
    expect(chooser.choose(["a", "b"])).toBe("a");
    expect(chooser.view("a").backoff_ms).toBe(0);
  });

  it("doubles the back-off while the instance keeps failing", () => {
    const { chooser, advance } = fixture();
    chooser.started("a");
    chooser.failed("a");
    advance(BACKOFF_BASE_MS);
    chooser.started("a");
    chooser.failed("a");
    expect(chooser.view("a").backoff_ms).toBe(2 * BACKOFF_BASE_MS);
    advance(BACKOFF_BASE_MS);
    expect(chooser.choose(["a", "b"])).toBe("b");
  });

  it("sends a retry elsewhere, and still tries a failed instance when it is the only one", () => {
    const { chooser } = fixture([0, 0]);
    expect(chooser.choose(["a", "b"], new Set(["a"]))).toBe("b");
    chooser.started("a");
    chooser.failed("a");
    expect(chooser.choose(["a"])).toBe("a");
    expect(chooser.choose(["a"], new Set(["a"]))).toBe("a");
  });

  it("draws two distinct instances, so each is reachable", () => {
    const seen = new Set<string>();
    for (const first of [0, 0.34, 0.67]) {
      for (const second of [0, 0.5]) {
        const { chooser } = fixture([first, second]);
        seen.add(chooser.choose(["a", "b", "c"]));
      }
    }
    expect(seen).toEqual(new Set(["a", "b", "c"]));
  });
});
