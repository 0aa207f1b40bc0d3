// The encoder's entry point: bilevel pages in, embedded-stream JBIG2 out, as PDF's
// JBIG2Decode takes it. Connected components that occur more than once (on any
// page) become one shared symbol dictionary in the globals stream; each page
// stream places them with a text region and codes everything else as a generic
// region. Lossless: a decoded page equals its input bit for bit.
import type { Bitmap, PackedBitmap } from "./bitmap.ts";
import { packBitmap, unpackBitmap } from "./bitmap.ts";
import { findComponents } from "./connected-components.ts";
import { encodeGenericRegion } from "./generic-region.ts";
import { genericRegionData, pageInformationData, SEGMENT_TYPE, serializeSegments } from "./segments.ts";
import type { Segment } from "./segments.ts";
import { dictionaryOrder, symbolDictionaryData } from "./symbol-dictionary.ts";
import { textRegionData } from "./text-region.ts";
import type { SymbolInstance } from "./text-region.ts";

export interface Jbig2Streams {
  /** The /JBIG2Globals stream, or null when no symbol repeats. */
  globals: Uint8Array | null;
  /** One embedded stream per input page, in order. */
  pages: Uint8Array[];
  symbols: number;
}

export interface Jbig2Options {
  /** Code repeated components as symbols; without it every page is one generic region. */
  symbols: boolean;
}

// Bigger components (rules, photos, frames) rarely repeat exactly and cost more to compare than they save.
const MAX_SYMBOL_SIDE = 256;
const DICTIONARY_SEGMENT = 0;

interface SymbolClass {
  bitmap: Bitmap;
  occurrences: { page: number; x: number; y: number }[];
}

function bitmapKey(bitmap: Bitmap): string {
  return `${bitmap.width}x${bitmap.height}:${Buffer.from(packBitmap(bitmap).rows).toString("latin1")}`;
}

function classifyComponents(pages: readonly Bitmap[]): SymbolClass[] {
  const classes = new Map<string, SymbolClass>();
  pages.forEach((page, pageIndex) => {
    for (const component of findComponents(page)) {
      if (component.bitmap.width > MAX_SYMBOL_SIDE || component.bitmap.height > MAX_SYMBOL_SIDE) continue;
      const key = bitmapKey(component.bitmap);
      let symbolClass = classes.get(key);
      if (symbolClass === undefined) {
        symbolClass = { bitmap: component.bitmap, occurrences: [] };
        classes.set(key, symbolClass);
      }
      symbolClass.occurrences.push({ page: pageIndex, x: component.x, y: component.y });
    }
  });
  return [...classes.values()].filter((symbolClass) => symbolClass.occurrences.length > 1);
}

/** The page without the pixels the text region draws. */
function residueOf(page: Bitmap, symbols: readonly Bitmap[], instances: readonly SymbolInstance[]): Bitmap {
  const pixels = page.pixels.slice();
  for (const { id, x, y } of instances) {
    const symbol = symbols[id] as Bitmap;
    for (let row = 0; row < symbol.height; row++) {
      const from = row * symbol.width;
      const to = (y + row) * page.width + x;
      for (let column = 0; column < symbol.width; column++) if (symbol.pixels[from + column] === 1) pixels[to + column] = 0;
    }
  }
  return { width: page.width, height: page.height, pixels };
}

function pageStream(page: Bitmap, symbols: readonly Bitmap[], instances: readonly SymbolInstance[]): Uint8Array {
  const segments: Segment[] = [{ number: 1, type: SEGMENT_TYPE.pageInformation, page: 1, referredTo: [], data: pageInformationData(page.width, page.height) }];
  let residue = page;
  if (instances.length > 0) {
    segments.push({
      number: 2,
      type: SEGMENT_TYPE.immediateLosslessTextRegion,
      page: 1,
      referredTo: [DICTIONARY_SEGMENT],
      data: textRegionData({ width: page.width, height: page.height, symbols, instances }),
    });
    residue = residueOf(page, symbols, instances);
  }
  const coded = encodeGenericRegion(residue, true);
  segments.push({ number: 3, type: SEGMENT_TYPE.immediateLosslessGenericRegion, page: 1, referredTo: [], data: genericRegionData(page.width, page.height, true, coded) });
  return serializeSegments(segments);
}

export function encodeJbig2(packedPages: readonly PackedBitmap[], options: Jbig2Options = { symbols: true }): Jbig2Streams {
  const pages = packedPages.map(unpackBitmap);
  const classes = options.symbols ? classifyComponents(pages) : [];
  // A dictionary of one symbol would need zero-bit symbol codes; a lone repeat is left to the generic region.
  if (classes.length < 2) return { globals: null, pages: pages.map((page) => pageStream(page, [], [])), symbols: 0 };
  const ordered = dictionaryOrder(classes.map((symbolClass) => symbolClass.bitmap));
  const idOf = new Map(ordered.map((bitmap, id) => [bitmap, id]));
  const instancesByPage = pages.map((): SymbolInstance[] => []);
  for (const symbolClass of classes) {
    const id = idOf.get(symbolClass.bitmap) as number;
    for (const { page, x, y } of symbolClass.occurrences) instancesByPage[page]?.push({ id, x, y });
  }
  const globals = serializeSegments([{ number: DICTIONARY_SEGMENT, type: SEGMENT_TYPE.symbolDictionary, page: 0, referredTo: [], data: symbolDictionaryData(ordered) }]);
  return { globals, pages: pages.map((page, index) => pageStream(page, ordered, instancesByPage[index] ?? [])), symbols: ordered.length };
}
