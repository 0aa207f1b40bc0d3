// Whether a source ends where its own structure says it ends. libvips is lenient where its
// decoders are: the GIF loader keeps the whole frames before a cut (a 10-frame GIF cut in half
// decodes as 5 frames), libpng never reads past the last IDAT to miss a lost IEND, and a page of
// a multi-page TIFF past the cut is only noticed if it is read. So the origin walks each
// container's blocks from the header before any decode, over every frame and page: what ends
// early is truncated. JPEG needs no walk: libjpeg under `failOn: "error"` stops at a cut scan.
// Bytes after a complete image are tolerated, as every decoder does.

/** Where `bytes` ends before its structure does, in words for the problem's detail; null when whole. */
export function truncationOf(bytes: Uint8Array): string | null {
  try {
    return walk(bytes);
  } catch (error) {
    // A read past the end that a walk did not bound itself.
    if (error instanceof RangeError) return `the file ends at byte ${bytes.length} inside its structure`;
    throw error;
  }
}

function walk(bytes: Uint8Array): string | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts = (text: string, at = 0) => text.split("").every((char, i) => bytes[at + i] === char.charCodeAt(0));
  if (starts("\x89PNG\r\n\x1a\n")) return pngTruncation(bytes, view);
  if (starts("GIF8")) return gifTruncation(bytes, view);
  if (starts("RIFF") && starts("WEBP", 8)) return riffTruncation(bytes, view);
  if (starts("II*\0") || starts("MM\0*") || starts("II+\0") || starts("MM\0+")) return tiffTruncation(bytes, view);
  if (starts("ftyp", 4)) return isoBoxTruncation(bytes, view);
  return null;
}

// Chunks (length, type, data, CRC) up to and including IEND.
function pngTruncation(bytes: Uint8Array, view: DataView): string | null {
  for (let at = 8; ; ) {
    if (at + 8 > bytes.length) return `the PNG ends at byte ${bytes.length} before its IEND chunk`;
    const end = at + 12 + view.getUint32(at);
    if (end > bytes.length) return `the PNG chunk at byte ${at} needs ${end} bytes, the file has ${bytes.length}`;
    if (view.getUint32(at + 4) === 0x49454e44) return null;
    at = end;
  }
}

// Header, screen descriptor and global palette, then extensions and images (descriptor, local
// palette, LZW data in sub-blocks) until the trailer byte 0x3B.
function gifTruncation(bytes: Uint8Array, view: DataView): string | null {
  const truncated = (what: string) => `the GIF ends at byte ${bytes.length} inside ${what}, before its trailer`;
  const paletteBytes = (flags: number) => ((flags & 0x80) === 0 ? 0 : 3 * 2 ** ((flags & 0x07) + 1));
  const skipSubBlocks = (from: number): number | null => {
    let at = from;
    while (at < bytes.length) {
      const size = bytes[at]!;
      at += 1 + size;
      if (size === 0) return at;
    }
    return null;
  };
  if (bytes.length < 13) return truncated("its header");
  let at = 13 + paletteBytes(view.getUint8(10));
  for (let frame = 1; ; ) {
    if (at >= bytes.length) return truncated(`the block after frame ${frame - 1}`);
    const introducer = bytes[at]!;
    if (introducer === 0x3b) return null;
    if (introducer === 0x21) {
      const next = at + 2 <= bytes.length ? skipSubBlocks(at + 2) : null;
      if (next === null) return truncated("an extension");
      at = next;
    } else if (introducer === 0x2c) {
      if (at + 10 > bytes.length) return truncated(`the descriptor of frame ${frame}`);
      const next = skipSubBlocks(at + 10 + paletteBytes(view.getUint8(at + 9)) + 1);
      if (next === null) return truncated(`frame ${frame}`);
      at = next;
      frame++;
    } else {
      return `the GIF has an unknown block 0x${introducer.toString(16)} at byte ${at}`;
    }
  }
}

// A RIFF file says its own size after the tag.
function riffTruncation(bytes: Uint8Array, view: DataView): string | null {
  if (bytes.length < 12) return `the WebP ends at byte ${bytes.length} inside its header`;
  const end = 8 + view.getUint32(4, true);
  return end > bytes.length ? `the WebP says it has ${end} bytes, the file has ${bytes.length}` : null;
}

// Every IFD in the chain (every page), every value an entry keeps outside it, and the strips or
// tiles each page points at.
const TIFF_TYPE_BYTES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8 };

function tiffTruncation(bytes: Uint8Array, view: DataView): string | null {
  const little = bytes[0] === 0x49;
  const big = view.getUint16(2, little) === 43;
  const offsetBytes = big ? 8 : 4;
  const readOffset = (at: number) => (big ? Number(view.getBigUint64(at, little)) : view.getUint32(at, little));
  const entryBytes = big ? 20 : 12;
  const countBytes = big ? 8 : 2;
  const readValue = (at: number, size: number) =>
    size === 2 ? view.getUint16(at, little) : size === 4 ? view.getUint32(at, little) : Number(view.getBigUint64(at, little));
  const seen = new Set<number>();
  let ifd = readOffset(big ? 8 : 4);
  for (let page = 1; ifd !== 0; page++) {
    if (seen.has(ifd)) return `the TIFF's directory chain loops at byte ${ifd}`;
    seen.add(ifd);
    if (ifd + countBytes > bytes.length) return `the TIFF ends at byte ${bytes.length} before the directory of page ${page}`;
    const entries = big ? Number(view.getBigUint64(ifd, little)) : view.getUint16(ifd, little);
    const next = ifd + countBytes + entries * entryBytes;
    if (next + offsetBytes > bytes.length) return `the TIFF ends at byte ${bytes.length} inside the directory of page ${page}`;
    const byTag = new Map<number, number[]>();
    for (let i = 0; i < entries; i++) {
      const entry = ifd + countBytes + i * entryBytes;
      const tag = view.getUint16(entry, little);
      const size = TIFF_TYPE_BYTES[view.getUint16(entry + 2, little)] ?? 1;
      const count = big ? Number(view.getBigUint64(entry + 4, little)) : view.getUint32(entry + 4, little);
      const from = count * size <= offsetBytes ? entry + 4 + offsetBytes : readOffset(entry + 4 + offsetBytes);
      if (from + count * size > bytes.length) return `tag ${tag} of page ${page} of the TIFF needs ${from + count * size} bytes, the file has ${bytes.length}`;
      // StripOffsets, StripByteCounts, TileOffsets, TileByteCounts.
      if ((tag === 273 || tag === 279 || tag === 324 || tag === 325) && (size === 2 || size === 4 || size === 8)) {
        byTag.set(tag, Array.from({ length: count }, (_, k) => readValue(from + k * size, size)));
      }
    }
    for (const [offsetsTag, countsTag] of [[273, 279], [324, 325]] as const) {
      const offsets = byTag.get(offsetsTag) ?? [];
      const counts = byTag.get(countsTag) ?? [];
      for (let i = 0; i < offsets.length; i++) {
        const end = offsets[i]! + (counts[i] ?? 0);
        if (end > bytes.length) return `page ${page} of the TIFF needs ${end} bytes, the file has ${bytes.length}`;
      }
    }
    ifd = readOffset(next);
  }
  return null;
}

// AVIF (and HEIF): top-level ISO boxes, each with its size, the last one reaching the end.
function isoBoxTruncation(bytes: Uint8Array, view: DataView): string | null {
  for (let at = 0; at < bytes.length; ) {
    if (at + 8 > bytes.length) return `the file ends at byte ${bytes.length} inside a box header`;
    const size32 = view.getUint32(at);
    const size = size32 === 1 ? (at + 16 <= bytes.length ? Number(view.getBigUint64(at + 8)) : Infinity) : size32 === 0 ? bytes.length - at : size32;
    if (size < 8) return `the box at byte ${at} has an impossible size ${size}`;
    if (at + size > bytes.length) return `the box at byte ${at} needs ${at + size} bytes, the file has ${bytes.length}`;
    at += size;
  }
  return null;
}
