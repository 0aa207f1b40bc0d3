// HEIF is ISO BMFF: a tree of sized, typed boxes. The item boxes the HEIC steps read live under
// meta: iinf (the items), pitm (the primary), iprp → ipco (the properties) and ipma (which item
// has which property).

const HEADER = 8;

export interface Box {
  type: string;
  /** Where the box's header starts, and where its content starts and ends, in the file. */
  at: number;
  start: number;
  end: number;
}

export function* boxes(bytes: Uint8Array, from: number, to: number): Generator<Box> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = from;
  while (at + HEADER <= to) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    let header = HEADER;
    if (size === 1) {
      if (at + 16 > to) return;
      const large = view.getBigUint64(at + 8);
      if (large > BigInt(to - at)) return;
      size = Number(large);
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) return;
    yield { type, at, start: at + header, end: at + size };
    at += size;
  }
}

/** The first child of `parent` of `type`; `skip` steps over a full box's version and flags. */
export function child(bytes: Uint8Array, parent: { start: number; end: number }, type: string, skip = 0): Box | undefined {
  for (const box of boxes(bytes, parent.start + skip, parent.end)) if (box.type === type) return box;
  return undefined;
}

/** `meta` is a full box: a version and flags word precedes its children. */
export function metaBox(bytes: Uint8Array): Box | undefined {
  return child(bytes, { start: 0, end: bytes.byteLength }, "meta");
}

/** The item properties in file order (ipma's indices count from 1 into this list). */
export function itemProperties(bytes: Uint8Array): Box[] {
  const meta = metaBox(bytes);
  const iprp = meta && child(bytes, meta, "iprp", 4);
  const ipco = iprp && child(bytes, iprp, "ipco");
  return ipco ? [...boxes(bytes, ipco.start, ipco.end)] : [];
}
