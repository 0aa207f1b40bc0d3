// The integer arithmetic encoding procedures of T.88 Annex A: the IAx procedure
// (A.2) for signed values and out-of-band, and IAID (A.3) for symbol codes.
import type { MqEncoder } from "./mq-encoder.ts";
import { newMqContexts } from "./mq-encoder.ts";

/** Magnitude ranges of A.2 (Table A.1): prefix bits, value bits, and the first magnitude in the range. */
const RANGES = [
  { prefix: [0], bits: 2, low: 0 },
  { prefix: [1, 0], bits: 4, low: 4 },
  { prefix: [1, 1, 0], bits: 6, low: 20 },
  { prefix: [1, 1, 1, 0], bits: 8, low: 84 },
  { prefix: [1, 1, 1, 1, 0], bits: 12, low: 340 },
  { prefix: [1, 1, 1, 1, 1], bits: 32, low: 4436 },
] as const;

/** One IAx procedure (IADH, IADW, IAEX, IADT, IAFS, IADS, IAIT...): each keeps its own 512 contexts. */
export class IntegerEncoder {
  private readonly contexts = newMqContexts(512);
  private previous = 1;

  /** Codes value, or out-of-band for null. */
  encode(mq: MqEncoder, value: number | null): void {
    this.previous = 1;
    if (value === null) {
      this.bit(mq, 1);
      this.bit(mq, 0);
      this.bit(mq, 0);
      this.bit(mq, 0);
      return;
    }
    const magnitude = Math.abs(value);
    const range = RANGES.findLast((candidate) => magnitude >= candidate.low) ?? RANGES[0];
    if (range.bits === 32 && magnitude - range.low > 0xffffffff) throw new Error(`integer ${value} is out of the IAx range`);
    this.bit(mq, value < 0 ? 1 : 0);
    for (const bit of range.prefix) this.bit(mq, bit);
    const offset = magnitude - range.low;
    for (let index = range.bits - 1; index >= 0; index--) this.bit(mq, Math.floor(offset / 2 ** index) % 2);
  }

  private bit(mq: MqEncoder, bit: number): void {
    mq.encode(this.contexts, this.previous, bit);
    this.previous = this.previous < 256 ? (this.previous << 1) | bit : ((((this.previous << 1) | bit) & 511) | 256);
  }
}

/** The IAID procedure for codes of codeLength bits. */
export class SymbolIdEncoder {
  private readonly codeLength: number;
  private readonly contexts;

  constructor(codeLength: number) {
    this.codeLength = codeLength;
    this.contexts = newMqContexts(1 << (codeLength + 1));
  }

  encode(mq: MqEncoder, id: number): void {
    let previous = 1;
    for (let index = this.codeLength - 1; index >= 0; index--) {
      const bit = (id >> index) & 1;
      mq.encode(this.contexts, previous, bit);
      previous = (previous << 1) | bit;
    }
  }
}

/** SBSYMCODELEN of 7.4.3.1.7: ceil(log2(symbols)). */
export function symbolCodeLength(symbols: number): number {
  let length = 0;
  while (1 << length < symbols) length++;
  return length;
}
