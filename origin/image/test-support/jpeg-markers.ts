// Reads the JPEG marker segments so tests can check what the encoder wrote
// (baseline or progressive, chroma sampling, metadata) from the bytes alone.

export interface JpegFrame {
  /** 0xc0 baseline, 0xc1 extended, 0xc2 progressive. */
  sofMarker: number;
  /** Horizontal x vertical sampling factor of each component, luma first. */
  sampling: Array<{ h: number; v: number }>;
}

export interface JpegSegments {
  frame: JpegFrame;
  /** APPn segments as [marker, identifier prefix]. */
  appSegments: Array<{ marker: number; identifier: string }>;
  /** Each quantisation table's 64 steps in zigzag order, by its slot (0 luma, 1 chroma as libjpeg writes them). */
  quantTables: number[][];
}

export function readJpegSegments(bytes: Uint8Array): JpegSegments {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error("not a JPEG (no SOI)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const appSegments: JpegSegments["appSegments"] = [];
  const quantTables: number[][] = [];
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw new Error(`marker expected at ${offset}`);
    const marker = bytes[offset + 1] ?? 0;
    const length = view.getUint16(offset + 2);
    const body = bytes.subarray(offset + 4, offset + 2 + length);
    if (marker >= 0xe0 && marker <= 0xef) {
      appSegments.push({ marker, identifier: new TextDecoder("latin1").decode(body.subarray(0, 29)) });
    }
    if (marker === 0xdb) {
      // DQT: one or more tables, each a precision/slot byte and 64 steps of 8 or 16 bits.
      for (let at = 0; at < body.length; ) {
        const wide = (body[at]! >> 4) === 1;
        const steps = Array.from({ length: 64 }, (_, i) => (wide ? view.getUint16(offset + 4 + at + 1 + 2 * i) : body[at + 1 + i]!));
        quantTables[body[at]! & 0x0f] = steps;
        at += 1 + 64 * (wide ? 2 : 1);
      }
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      const components = body[5] ?? 0;
      const sampling = [];
      for (let c = 0; c < components; c++) {
        const factors = body[6 + c * 3 + 1] ?? 0;
        sampling.push({ h: factors >> 4, v: factors & 0x0f });
      }
      return { frame: { sofMarker: marker, sampling }, appSegments, quantTables };
    }
    offset += 2 + length;
  }
  throw new Error("no SOF marker");
}

export function hasExifOrXmp(segments: JpegSegments): boolean {
  return segments.appSegments.some(
    ({ marker, identifier }) => marker === 0xe1 && (identifier.startsWith("Exif") || identifier.startsWith("http://ns.adobe.com/xap")),
  );
}
