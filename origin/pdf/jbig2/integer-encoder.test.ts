import { describe, expect, it } from "vitest";
import { IntegerEncoder, SymbolIdEncoder, symbolCodeLength } from "./integer-encoder.ts";
import { MqEncoder } from "./mq-encoder.ts";
import { ReferenceMqDecoder } from "./test-support/mq-decoder.ts";

describe("IntegerEncoder and SymbolIdEncoder", () => {
  it("round-trips values at every range boundary, negatives and out-of-band, interleaved with symbol ids", () => {
    const values = [0, 1, -1, 3, 4, -4, 19, 20, 83, 84, -339, 340, 4435, 4436, -70000, 2 ** 31, null, 0, null, 7];
    const codeLength = symbolCodeLength(300);
    const mq = new MqEncoder();
    const integers = new IntegerEncoder();
    const ids = new SymbolIdEncoder(codeLength);
    values.forEach((value, index) => {
      integers.encode(mq, value);
      ids.encode(mq, (index * 37) % 300);
    });
    const decoder = new ReferenceMqDecoder(mq.finish());
    values.forEach((value, index) => {
      expect(decoder.decodeInteger("iax")).toBe(value);
      expect(decoder.decodeSymbolId("iaid", codeLength)).toBe((index * 37) % 300);
    });
  });

  it("sizes symbol codes as ceil(log2(n))", () => {
    expect([1, 2, 3, 4, 5, 256, 257].map(symbolCodeLength)).toEqual([0, 1, 2, 2, 3, 8, 9]);
  });
});
