// Which characters a TrueType/OpenType font has glyphs for, read from its `cmap` table: the text
// overlay refuses a character its font cannot draw before Pango would draw a box for it. Only the
// Unicode subtables are read (formats 4 and 12, as the OpenType spec describes them); the fonts
// are the origin's own, so a malformed one is a bug, not a request's fault.

interface CodepointRange {
  first: number;
  last: number;
}

/** A font's Unicode coverage: `has(codepoint)` is true where the font maps it to a glyph other than .notdef. */
export interface Coverage {
  has(codepoint: number): boolean;
}

function tableOffset(font: DataView, tag: string): number {
  const tables = font.getUint16(4);
  for (let i = 0; i < tables; i++) {
    const record = 12 + i * 16;
    const name = String.fromCharCode(font.getUint8(record), font.getUint8(record + 1), font.getUint8(record + 2), font.getUint8(record + 3));
    if (name === tag) return font.getUint32(record + 8);
  }
  throw new Error(`the font has no ${tag} table`);
}

// Format 4: segments of 16-bit code points; a glyph id of 0 is .notdef (no glyph).
function format4Ranges(font: DataView, at: number): CodepointRange[] {
  const segments = font.getUint16(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  const ranges: CodepointRange[] = [];
  for (let s = 0; s < segments; s++) {
    const first = font.getUint16(starts + s * 2);
    const last = font.getUint16(ends + s * 2);
    const delta = font.getUint16(deltas + s * 2);
    const rangeOffset = font.getUint16(rangeOffsets + s * 2);
    for (let c = first; c <= last && c !== 0xffff; c++) {
      const glyph = rangeOffset === 0 ? (c + delta) & 0xffff : glyphAt(font, rangeOffsets + s * 2 + rangeOffset + (c - first) * 2, delta);
      if (glyph !== 0) addCodepoint(ranges, c);
    }
  }
  return ranges;
}

function glyphAt(font: DataView, at: number, delta: number): number {
  const glyph = font.getUint16(at);
  return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
}

function addCodepoint(ranges: CodepointRange[], c: number): void {
  const last = ranges.at(-1);
  if (last !== undefined && last.last === c - 1) last.last = c;
  else ranges.push({ first: c, last: c });
}

// Format 12: groups of 32-bit code points mapped to consecutive glyphs.
function format12Ranges(font: DataView, at: number): CodepointRange[] {
  const groups = font.getUint32(at + 12);
  const ranges: CodepointRange[] = [];
  for (let g = 0; g < groups; g++) {
    const group = at + 16 + g * 12;
    const first = font.getUint32(group);
    const last = font.getUint32(group + 4);
    const startGlyph = font.getUint32(group + 8);
    // Only the first code point of a group can map to .notdef.
    const from = startGlyph === 0 ? first + 1 : first;
    if (from <= last) ranges.push({ first: from, last });
  }
  return ranges;
}

type SubtableFormat = 4 | 12;

/**
 * The font's coverage from its first Unicode subtable in `preference`'s order: format 12 (all of
 * Unicode) before format 4 (the Basic Multilingual Plane) unless told otherwise.
 */
export function readCoverage(bytes: Uint8Array, preference: readonly SubtableFormat[] = [12, 4]): Coverage {
  const font = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cmap = tableOffset(font, "cmap");
  const found = new Map<number, number>();
  for (let i = 0; i < font.getUint16(cmap + 2); i++) {
    const platform = font.getUint16(cmap + 4 + i * 8);
    const encoding = font.getUint16(cmap + 6 + i * 8);
    const at = cmap + font.getUint32(cmap + 8 + i * 8);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (unicode && !found.has(font.getUint16(at))) found.set(font.getUint16(at), at);
  }
  const format = preference.find((candidate) => found.has(candidate));
  if (format === undefined) throw new Error(`the font has no Unicode cmap subtable of format ${preference.join(" or ")}`);
  const ranges = format === 12 ? format12Ranges(font, found.get(format)!) : format4Ranges(font, found.get(format)!);
  return { has: (codepoint) => covers(ranges, codepoint) };
}

function covers(ranges: readonly CodepointRange[], codepoint: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle]!;
    if (codepoint < range.first) high = middle - 1;
    else if (codepoint > range.last) low = middle + 1;
    else return true;
  }
  return false;
}
