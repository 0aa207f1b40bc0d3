// The MQ arithmetic encoder of ITU-T T.88 Annex E (E.2): adaptive binary coding
// where each context carries a probability-state index and its more probable symbol.

/** Qe, NMPS, NLPS and SWITCH of each probability state (T.88 Table E.1), shared with the test decoder. */
export const QE = [
  0x5601, 0x3401, 0x1801, 0x0ac1, 0x0521, 0x0221, 0x5601, 0x5401, 0x4801, 0x3801, 0x3001, 0x2401, 0x1c01, 0x1601, 0x5601, 0x5401, 0x5101, 0x4801, 0x3801, 0x3401,
  0x3001, 0x2801, 0x2401, 0x2201, 0x1c01, 0x1801, 0x1601, 0x1401, 0x1201, 0x1101, 0x0ac1, 0x09c1, 0x08a1, 0x0521, 0x0441, 0x02a1, 0x0221, 0x0141, 0x0111, 0x0085,
  0x0049, 0x0025, 0x0015, 0x0009, 0x0005, 0x0001, 0x5601,
];
export const NMPS = [1, 2, 3, 4, 5, 38, 7, 8, 9, 10, 11, 12, 13, 29, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 45, 46];
export const NLPS = [1, 6, 9, 12, 29, 33, 6, 14, 14, 14, 17, 18, 20, 21, 14, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 46];
const SWITCH = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/** The adaptive state of a family of contexts, all starting at state 0 with MPS 0 as the decoder's do. */
export interface MqContexts {
  state: Uint8Array;
  mps: Uint8Array;
}

export function newMqContexts(count: number): MqContexts {
  return { state: new Uint8Array(count), mps: new Uint8Array(count) };
}

export class MqEncoder {
  private a = 0x8000;
  private c = 0;
  private ct = 12;
  // out[bp] is the byte B of the spec; out[0] is the byte before the stream start, dropped at the end.
  private out = new Uint8Array(4096);
  private bp = 0;

  encode(contexts: MqContexts, cx: number, bit: number): void {
    const state = contexts.state[cx] as number;
    const qe = QE[state] as number;
    if (bit === contexts.mps[cx]) {
      this.a -= qe;
      if ((this.a & 0x8000) !== 0) {
        this.c += qe;
        return;
      }
      if (this.a < qe) this.a = qe;
      else this.c += qe;
      contexts.state[cx] = NMPS[state] as number;
    } else {
      this.a -= qe;
      if (this.a < qe) this.c += qe;
      else this.a = qe;
      if (SWITCH[state] === 1) contexts.mps[cx] = 1 - (contexts.mps[cx] as number);
      contexts.state[cx] = NLPS[state] as number;
    }
    this.renormalize();
  }

  /** Flushes the coder (E.2.9) and returns the coded bytes, ending with the 0xFF 0xAC marker. */
  finish(): Uint8Array {
    const upper = this.c + this.a;
    this.c |= 0xffff;
    if (this.c >= upper) this.c -= 0x8000;
    this.c <<= this.ct;
    this.byteOut();
    this.c <<= this.ct;
    this.byteOut();
    const end = this.out[this.bp] === 0xff ? this.bp : this.bp + 1;
    const bytes = new Uint8Array(end + 1);
    bytes.set(this.out.subarray(1, end));
    bytes[end - 1] = 0xff;
    bytes[end] = 0xac;
    return bytes;
  }

  private renormalize(): void {
    do {
      this.a = (this.a << 1) & 0xffff;
      this.c <<= 1;
      this.ct--;
      if (this.ct === 0) this.byteOut();
    } while ((this.a & 0x8000) === 0);
  }

  private byteOut(): void {
    if (this.out[this.bp] === 0xff) {
      this.emit(this.c >>> 20);
      this.c &= 0xfffff;
      this.ct = 7;
      return;
    }
    if (this.c < 0x8000000) {
      this.emit(this.c >>> 19);
      this.c &= 0x7ffff;
      this.ct = 8;
      return;
    }
    this.out[this.bp] = (this.out[this.bp] as number) + 1;
    this.c &= 0x7ffffff;
    if (this.out[this.bp] === 0xff) {
      this.emit(this.c >>> 20);
      this.c &= 0xfffff;
      this.ct = 7;
    } else {
      this.emit(this.c >>> 19);
      this.c &= 0x7ffff;
      this.ct = 8;
    }
  }

  private emit(byte: number): void {
    this.bp++;
    if (this.bp === this.out.length) {
      const grown = new Uint8Array(this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[this.bp] = byte;
  }
}
