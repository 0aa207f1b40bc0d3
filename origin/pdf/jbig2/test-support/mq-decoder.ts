// A reference MQ decoder written from the flowcharts of T.88 Annex E.3 (INITDEC,
// DECODE, RENORMD, BYTEIN), with the integer decoding procedures of Annex A on top,
// so the encoders can be checked independently of any production decoder.
import { NLPS, NMPS, QE } from "../mq-encoder.ts";

export class ReferenceMqDecoder {
  private readonly data: Uint8Array;
  private bp = 0;
  private a = 0x8000;
  private c = 0;
  private ct = 0;
  private readonly state = new Map<string, number>();
  private readonly mps = new Map<string, number>();

  constructor(data: Uint8Array) {
    this.data = data;
    this.c = this.byte(0) * 65536;
    this.byteIn();
    this.c = this.c * 128;
    this.ct -= 7;
  }

  /** Decodes one decision in context cx of family (each family has its own state, like each coder's contexts). */
  decode(family: string, cx: number): number {
    const key = `${family}:${cx}`;
    const index = this.state.get(key) ?? 0;
    const mps = this.mps.get(key) ?? 0;
    const qe = QE[index] as number;
    let decision: number;
    this.a -= qe;
    if (Math.floor(this.c / 65536) < qe) {
      if (this.a < qe) {
        decision = mps;
        this.state.set(key, NMPS[index] as number);
      } else {
        decision = 1 - mps;
        if (index === 0 || index === 6 || index === 14) this.mps.set(key, 1 - mps);
        this.state.set(key, NLPS[index] as number);
      }
      this.a = qe;
    } else {
      this.c -= qe * 65536;
      if ((this.a & 0x8000) !== 0) return mps;
      if (this.a < qe) {
        decision = 1 - mps;
        if (index === 0 || index === 6 || index === 14) this.mps.set(key, 1 - mps);
        this.state.set(key, NLPS[index] as number);
      } else {
        decision = mps;
        this.state.set(key, NMPS[index] as number);
      }
    }
    do {
      if (this.ct === 0) this.byteIn();
      this.a = (this.a * 2) & 0xffff;
      this.c = (this.c * 2) % 2 ** 32;
      this.ct--;
    } while ((this.a & 0x8000) === 0);
    return decision;
  }

  /** The IAx procedure (A.2): a signed integer, or null for out-of-band. */
  decodeInteger(family: string): number | null {
    let previous = 1;
    const bit = (): number => {
      const decision = this.decode(family, previous);
      previous = previous < 256 ? (previous << 1) | decision : (((previous << 1) | decision) & 511) | 256;
      return decision;
    };
    const bits = (count: number): number => {
      let value = 0;
      for (let index = 0; index < count; index++) value = value * 2 + bit();
      return value;
    };
    const sign = bit();
    // Each prefix bit read says whether the value lies in this range or a later one.
    let value: number | undefined;
    for (const [width, offset] of [[2, 0], [4, 4], [6, 20], [8, 84], [12, 340]] as const) {
      if (bit() === 0) {
        value = bits(width) + offset;
        break;
      }
    }
    value ??= bits(32) + 4436;
    if (sign === 1 && value === 0) return null;
    return sign === 1 ? -value : value;
  }

  /** The IAID procedure (A.3). */
  decodeSymbolId(family: string, codeLength: number): number {
    let previous = 1;
    for (let index = 0; index < codeLength; index++) previous = (previous << 1) | this.decode(family, previous);
    return previous - (1 << codeLength);
  }

  private byte(offset: number): number {
    return this.data[offset] ?? 0xff;
  }

  private byteIn(): void {
    if (this.byte(this.bp) === 0xff) {
      if (this.byte(this.bp + 1) > 0x8f) {
        this.c += 0xff00;
        this.ct = 8;
      } else {
        this.bp++;
        this.c += this.byte(this.bp) * 512;
        this.ct = 7;
      }
    } else {
      this.bp++;
      this.c += this.byte(this.bp) * 256;
      this.ct = 8;
    }
  }
}
