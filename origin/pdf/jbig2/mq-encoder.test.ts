import { describe, expect, it } from "vitest";
import { MqEncoder, newMqContexts } from "./mq-encoder.ts";
import { ReferenceMqDecoder } from "./test-support/mq-decoder.ts";

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

describe("MqEncoder", () => {
  it.each([
    ["skewed decisions over few contexts", 1, 8, 0.05],
    ["balanced decisions over many contexts", 2, 300, 0.5],
    ["mostly ones", 3, 4, 0.97],
  ])("round-trips %s through the Annex E reference decoder", (_name, seed, contextCount, pOne) => {
    const next = random(seed);
    const decisions = Array.from({ length: 20000 }, () => ({ cx: Math.floor(next() * contextCount), bit: next() < pOne ? 1 : 0 }));
    const encoder = new MqEncoder();
    const contexts = newMqContexts(contextCount);
    for (const { cx, bit } of decisions) encoder.encode(contexts, cx, bit);
    const bytes = encoder.finish();
    expect([...bytes.subarray(-2)]).toEqual([0xff, 0xac]);
    const decoder = new ReferenceMqDecoder(bytes);
    const decoded = decisions.map(({ cx }) => decoder.decode("g", cx));
    expect(decoded).toEqual(decisions.map(({ bit }) => bit));
  });

  it("compresses a predictable sequence far below one bit per decision", () => {
    const encoder = new MqEncoder();
    const contexts = newMqContexts(1);
    for (let index = 0; index < 80000; index++) encoder.encode(contexts, 0, index % 1000 === 0 ? 1 : 0);
    expect(encoder.finish().length).toBeLessThan(80000 / 8 / 20);
  });
});
