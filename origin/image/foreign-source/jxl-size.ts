// A JPEG XL's pixel size, read from its SizeHeader before anything is decoded, so a file that
// declares a billion pixels is refused without the decoder allocating them. The codestream is
// either bare (FF 0A) or inside ISO BMFF boxes (`jxlc`, or `jxlp` parts).

const CODESTREAM_SIGNATURE = [0xff, 0x0a];
const CONTAINER_SIGNATURE = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];
// Width from height by the header's 3-bit ratio code (1: 1/1, 2: 12/10, 3: 4/3, …).
const RATIOS: readonly (readonly [number, number])[] = [[1, 1], [12, 10], [4, 3], [3, 2], [16, 9], [5, 4], [2, 1]];

class BitReader {
  private bit = 0;
  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /** `count` bits, least significant first, as the format packs them. */
  read(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++, this.bit++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new RangeError("the JPEG XL header is cut short");
      value += ((byte >> (this.bit & 7)) & 1) * 2 ** i;
    }
    return value;
  }

  /** The format's U32 with distributions u(9), u(13), u(18), u(30), each plus one. */
  dimension(): number {
    return this.read([9, 13, 18, 30][this.read(2)]!) + 1;
  }
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((value, i) => bytes[i] === value);
}

/** The first bytes of the codestream, wherever the container keeps it. */
function codestreamStart(bytes: Uint8Array): Uint8Array | null {
  if (startsWith(bytes, CODESTREAM_SIGNATURE)) return bytes;
  if (!startsWith(bytes, CONTAINER_SIGNATURE)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + 8 <= bytes.byteLength) {
    const size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const end = size === 0 ? bytes.byteLength : at + size;
    if (size !== 0 && size < 8) return null;
    // A partial codestream box starts with its 4-byte sequence number.
    if (type === "jxlc") return bytes.subarray(at + 8, end);
    if (type === "jxlp") return bytes.subarray(at + 12, end);
    at = end;
  }
  return null;
}

export function isJxl(bytes: Uint8Array): boolean {
  return startsWith(bytes, CODESTREAM_SIGNATURE) || startsWith(bytes, CONTAINER_SIGNATURE);
}

/** Width and height from the SizeHeader, or null when the bytes hold no readable header. */
export function jxlSize(bytes: Uint8Array): { width: number; height: number } | null {
  const codestream = codestreamStart(bytes);
  if (!codestream || !startsWith(codestream, CODESTREAM_SIGNATURE)) return null;
  try {
    const bits = new BitReader(codestream.subarray(2));
    const small = bits.read(1) === 1;
    const height = small ? (bits.read(5) + 1) * 8 : bits.dimension();
    const ratio = bits.read(3);
    if (ratio !== 0) {
      const [numerator, denominator] = RATIOS[ratio - 1]!;
      return { width: Math.floor((height * numerator) / denominator), height };
    }
    return { width: small ? (bits.read(5) + 1) * 8 : bits.dimension(), height };
  } catch {
    return null;
  }
}
