import { ZIGZAG_TO_NATURAL } from "./zigzag-order.ts";

export type QuantTable = {
  /** Table slot 0..3 (Tq). */
  id: number;
  /** Pq of the DQT entry: 8-bit entries (baseline) or 16-bit entries. */
  precision: 8 | 16;
  /** 64 quantizer steps in natural (row-major) order, already de-zigzagged. */
  values: readonly number[];
};

export type JpegQuantTables = {
  /** Tables in force when the first scan starts, keyed by slot; a later DQT for a slot replaces the earlier one. */
  tables: ReadonlyMap<number, QuantTable>;
  /** Tq of each frame component in SOF order (Y, Cb, Cr / C, M, Y, K); empty when no SOF precedes the first scan. */
  componentTableIds: readonly number[];
};

const MARKER_SOI = 0xd8;
const MARKER_EOI = 0xd9;
const MARKER_SOS = 0xda;
const MARKER_DQT = 0xdb;

/**
 * Reads the quantization tables and the component-to-table mapping from a JPEG's
 * header, stopping at the first SOS. Returns null when the bytes are not a JPEG,
 * when a DQT segment is malformed or cut short, or when no table was found.
 * A malformed non-DQT segment ends the scan but keeps the tables read so far,
 * so a file truncated after its header still reports its tables.
 */
export function readQuantTables(jpeg: Uint8Array): JpegQuantTables | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== MARKER_SOI) return null;
  const tables = new Map<number, QuantTable>();
  let componentTableIds: number[] = [];
  let offset = 2;
  while (offset < jpeg.length) {
    if (jpeg[offset] !== 0xff) break;
    // Any number of 0xFF fill bytes may precede a marker code.
    while (offset < jpeg.length && jpeg[offset] === 0xff) offset++;
    const marker = jpeg[offset];
    offset++;
    if (marker === undefined || marker === MARKER_SOS || marker === MARKER_EOI) break;
    if (hasNoLength(marker)) continue;
    const length = readUint16(jpeg, offset);
    if (length === undefined || length < 2 || offset + length > jpeg.length) {
      if (marker === MARKER_DQT) return null;
      break;
    }
    const segment = jpeg.subarray(offset + 2, offset + length);
    if (marker === MARKER_DQT) {
      const parsed = parseDqtSegment(segment);
      if (parsed === null) return null;
      for (const table of parsed) tables.set(table.id, table);
    } else if (isStartOfFrame(marker)) {
      const ids = parseFrameTableIds(segment);
      if (ids !== null) componentTableIds = ids;
    }
    offset += length;
  }
  return tables.size === 0 ? null : { tables, componentTableIds };
}

function parseDqtSegment(segment: Uint8Array): QuantTable[] | null {
  const result: QuantTable[] = [];
  let offset = 0;
  while (offset < segment.length) {
    const header = segment[offset] as number;
    const precisionCode = header >> 4;
    const id = header & 0x0f;
    if (precisionCode > 1 || id > 3) return null;
    const entryBytes = precisionCode === 0 ? 1 : 2;
    offset++;
    if (offset + 64 * entryBytes > segment.length) return null;
    const values = new Array<number>(64);
    for (let k = 0; k < 64; k++) {
      const at = offset + k * entryBytes;
      const value = entryBytes === 1 ? (segment[at] as number) : ((segment[at] as number) << 8) | (segment[at + 1] as number);
      // A zero step is undefined in T.81 and would make any ratio meaningless.
      if (value === 0) return null;
      values[ZIGZAG_TO_NATURAL[k] as number] = value;
    }
    offset += 64 * entryBytes;
    result.push({ id, precision: precisionCode === 0 ? 8 : 16, values });
  }
  return result.length === 0 ? null : result;
}

function parseFrameTableIds(segment: Uint8Array): number[] | null {
  const componentCount = segment[5];
  if (componentCount === undefined || segment.length < 6 + componentCount * 3) return null;
  const ids: number[] = [];
  for (let i = 0; i < componentCount; i++) ids.push(segment[6 + i * 3 + 2] as number);
  return ids;
}

function readUint16(bytes: Uint8Array, offset: number): number | undefined {
  const high = bytes[offset];
  const low = bytes[offset + 1];
  return high === undefined || low === undefined ? undefined : (high << 8) | low;
}

/** TEM and RST0..7 are the only markers without a length field. */
function hasNoLength(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/** SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}
