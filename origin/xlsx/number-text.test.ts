import { describe, expect, it } from "vitest";
import { numberText } from "./number-text.ts";

// A seeded generator: a failure names values that reproduce.
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function mismatches(values: Iterable<number>): [number, string, string][] {
  const found: [number, string, string][] = [];
  for (const value of values) {
    const text = numberText(value);
    if (text !== String(value)) found.push([value, text, String(value)]);
  }
  return found.slice(0, 5);
}

describe("numberText", () => {
  it("spells values with up to six decimal places as String() does", () => {
    const random = randomSource(29);
    const values = Array.from({ length: 300_000 }, (_, i) => {
      const places = 1 + (i % 6);
      return Math.round((random() - 0.5) * 2e8) / 10 ** places;
    });
    expect(mismatches(values)).toEqual([]);
  });

  it("spells arbitrary doubles, tiny and huge ones and negative zero as String() does", () => {
    const random = randomSource(7);
    const values = Array.from({ length: 300_000 }, (_, i) => (random() - 0.5) * 10 ** ((i % 40) - 20));
    values.push(0, -0, 0.1, -0.1, 0.000001, 0.0000001, 1e21, 123456789.123456, 999999999.999999, 1e9 - 0.5, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, 0.1 + 0.2);
    expect(mismatches(values)).toEqual([]);
  });

  it("spells money-like values without the exponent or trailing zeros", () => {
    expect([1373.1, -0.05, 0.37, 12.5, 100.01].map(numberText)).toEqual(["1373.1", "-0.05", "0.37", "12.5", "100.01"]);
  });
});
