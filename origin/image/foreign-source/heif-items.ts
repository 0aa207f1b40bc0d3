// The items of a HEIF file as its meta box declares them: each item's type, where its bytes are
// (iloc, in the file or in idat), which properties it has (ipma, in their order) and which items
// it is derived from (iref dimg: a grid's tiles, in raster order). Only what the grid decoder reads.
import { boxes, child, itemProperties, metaBox, type Box } from "./heif-boxes.ts";

export interface HeifItem {
  id: number;
  type: string;
  /** The item's bytes, its extents joined; null when they lie outside the file or use a method not read here. */
  data: Uint8Array | null;
  /** Its properties, in the order ipma lists them (the order transforms apply in). */
  properties: Box[];
  /** The items it is derived from (dimg), in order. */
  derivedFrom: number[];
}

export interface HeifItems {
  primary: number | null;
  items: Map<number, HeifItem>;
}

type Region = { start: number; end: number };

function reader(bytes: Uint8Array, region: Region) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = region.start;
  const take = (size: number): number => {
    if (at + size > region.end) throw new RangeError("a HEIF box ends inside its fields");
    if (![0, 1, 2, 4, 8].includes(size)) throw new RangeError(`a HEIF field of ${size} bytes`);
    const value = size === 0 ? 0 : size === 1 ? bytes[at]! : size === 2 ? view.getUint16(at) : size === 4 ? view.getUint32(at) : Number(view.getBigUint64(at));
    at += size;
    return value;
  };
  return { take, skip: (size: number) => void (at += size) };
}

interface Location {
  method: number;
  extents: { offset: number; length: number }[];
}

// iloc: field sizes in nibbles, then per item its id, (version 1+) construction method, data
// reference, base offset and extents.
function locations(bytes: Uint8Array, iloc: Region): Map<number, Location> {
  const version = bytes[iloc.start]!;
  const read = reader(bytes, { start: iloc.start + 4, end: iloc.end });
  const sizes = read.take(2);
  const [offsetSize, lengthSize, baseSize, indexSize] = [sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15, version > 0 ? sizes & 15 : 0];
  const count = read.take(version < 2 ? 2 : 4);
  const found = new Map<number, Location>();
  for (let i = 0; i < count; i++) {
    const id = read.take(version < 2 ? 2 : 4);
    const method = version > 0 ? read.take(2) & 15 : 0;
    read.skip(2);
    const base = read.take(baseSize);
    const extents = Array.from({ length: read.take(2) }, () => {
      read.skip(indexSize);
      return { offset: base + read.take(offsetSize), length: read.take(lengthSize) };
    });
    found.set(id, { method, extents });
  }
  return found;
}

function itemData(bytes: Uint8Array, location: Location | undefined, idat: Box | undefined): Uint8Array | null {
  if (!location || location.extents.length === 0) return null;
  // Method 0: offsets in the file; 1: offsets in idat. Method 2 (another item's bytes) is not read here.
  const within = location.method === 0 ? { start: 0, end: bytes.byteLength } : location.method === 1 && idat ? idat : null;
  if (!within) return null;
  const parts: Uint8Array[] = [];
  for (const { offset, length } of location.extents) {
    const start = within.start + offset;
    // A length of 0 means "to the end of the file" (one extent only).
    const end = length === 0 ? within.end : start + length;
    if (end > within.end || start > end) return null;
    parts.push(bytes.subarray(start, end));
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function itemTypes(bytes: Uint8Array, iinf: Region): Map<number, string> {
  const types = new Map<number, string>();
  const entries = iinf.start + 4 + (bytes[iinf.start] === 0 ? 2 : 4);
  for (const infe of boxes(bytes, entries, iinf.end)) {
    const version = bytes[infe.start]!;
    if (infe.type !== "infe" || version < 2) continue;
    const read = reader(bytes, { start: infe.start + 4, end: infe.end });
    const id = read.take(version === 2 ? 2 : 4);
    // The item type follows the id (16 bits in version 2, 32 after) and a 16-bit protection index.
    const typeAt = infe.start + (version === 2 ? 8 : 10);
    types.set(id, String.fromCharCode(...bytes.subarray(typeAt, typeAt + 4)));
  }
  return types;
}

// ipma: version 1 has 32-bit item ids; flag 1 makes each association 16 bits (past 127 properties).
function associations(bytes: Uint8Array, ipma: Region, properties: Box[]): Map<number, Box[]> {
  const wideIds = bytes[ipma.start]! > 0;
  const wideIndices = (bytes[ipma.start + 3]! & 1) === 1;
  const read = reader(bytes, { start: ipma.start + 4, end: ipma.end });
  const found = new Map<number, Box[]>();
  for (let count = read.take(4), i = 0; i < count; i++) {
    const id = read.take(wideIds ? 4 : 2);
    const indices = Array.from({ length: read.take(1) }, () => read.take(wideIndices ? 2 : 1) & (wideIndices ? 0x7fff : 0x7f));
    found.set(id, indices.flatMap((index) => (index > 0 && properties[index - 1] ? [properties[index - 1]!] : [])));
  }
  return found;
}

function derivations(bytes: Uint8Array, iref: Region): Map<number, number[]> {
  const wide = bytes[iref.start]! > 0;
  const found = new Map<number, number[]>();
  for (const reference of boxes(bytes, iref.start + 4, iref.end)) {
    if (reference.type !== "dimg") continue;
    const read = reader(bytes, reference);
    const from = read.take(wide ? 4 : 2);
    found.set(from, Array.from({ length: read.take(2) }, () => read.take(wide ? 4 : 2)));
  }
  return found;
}

/** Every item the file declares; throws a RangeError where a box ends inside its own fields. */
export function heifItems(bytes: Uint8Array): HeifItems {
  const meta = metaBox(bytes);
  if (!meta) return { primary: null, items: new Map() };
  const inMeta = (type: string) => child(bytes, meta, type, 4);
  const pitm = inMeta("pitm");
  const primary = pitm ? reader(bytes, { start: pitm.start + 4, end: pitm.end }).take(bytes[pitm.start] === 0 ? 2 : 4) : null;
  const iinf = inMeta("iinf");
  const iloc = inMeta("iloc");
  const iprp = inMeta("iprp");
  const ipma = iprp && child(bytes, iprp, "ipma");
  const iref = inMeta("iref");
  const where = iloc ? locations(bytes, iloc) : new Map<number, Location>();
  const has = ipma ? associations(bytes, ipma, itemProperties(bytes)) : new Map<number, Box[]>();
  const from = iref ? derivations(bytes, iref) : new Map<number, number[]>();
  const idat = inMeta("idat");
  const items = new Map<number, HeifItem>();
  for (const [id, type] of iinf ? itemTypes(bytes, iinf) : []) {
    items.set(id, { id, type, data: itemData(bytes, where.get(id), idat), properties: has.get(id) ?? [], derivedFrom: from.get(id) ?? [] });
  }
  return { primary, items };
}
