// A phone's HEIC says what its samples mean in a `colr` box (an ICC profile, usually Display P3).
// libheif's JavaScript build decodes the pixels but does not hand the profile back, so it is read
// from the container here: ISO BMFF boxes, meta → iprp → ipco → colr.

const HEADER = 8;

interface Box {
  type: string;
  /** Where the box's content starts and ends in the file. */
  start: number;
  end: number;
}

function* boxes(bytes: Uint8Array, from: number, to: number): Generator<Box> {
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
    yield { type, start: at + header, end: at + size };
    at += size;
  }
}

function child(bytes: Uint8Array, parent: { start: number; end: number }, type: string, skip = 0): Box | undefined {
  for (const box of boxes(bytes, parent.start + skip, parent.end)) if (box.type === type) return box;
  return undefined;
}

/**
 * The first ICC profile a `colr` box of the file carries, or null. HEIC's item properties are
 * shared by every image in the file; a phone writes one profile for its primary image and its
 * thumbnail alike.
 */
export function heifIccProfile(bytes: Uint8Array): Uint8Array | null {
  const file = { start: 0, end: bytes.byteLength };
  // `meta` is a full box: a version and flags word precedes its children.
  const meta = child(bytes, file, "meta");
  const iprp = meta && child(bytes, meta, "iprp", 4);
  const ipco = iprp && child(bytes, iprp, "ipco");
  if (!ipco) return null;
  for (const box of boxes(bytes, ipco.start, ipco.end)) {
    if (box.type !== "colr" || box.end - box.start < 4) continue;
    const kind = String.fromCharCode(...bytes.subarray(box.start, box.start + 4));
    if (kind === "prof" || kind === "rICC") return bytes.slice(box.start + 4, box.end);
  }
  return null;
}
