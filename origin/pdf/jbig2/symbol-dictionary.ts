// Symbol dictionary segment data (T.88 7.4.2 and the inverse of 6.5.5): arithmetic
// coding, no refinement or aggregation, symbols in height classes, each bitmap
// coded with template 0 on contexts shared by the whole dictionary, all exported.
import type { Bitmap } from "./bitmap.ts";
import { encodeGenericPixels, TEMPLATE0_CONTEXTS } from "./generic-region.ts";
import { IntegerEncoder } from "./integer-encoder.ts";
import { MqEncoder, newMqContexts } from "./mq-encoder.ts";
import { concatBytes } from "../../../contracts/encoding/concat-bytes.ts";
import { adaptivePixelBytes } from "./segments.ts";

/** The order a dictionary stores its symbols in, which is the order of their ids: by height, then width. */
export function dictionaryOrder(symbols: readonly Bitmap[]): Bitmap[] {
  return [...symbols].sort((a, b) => a.height - b.height || a.width - b.width);
}

/** Codes symbols, which must already be in dictionaryOrder; the symbol with id i is symbols[i]. */
export function symbolDictionaryData(symbols: readonly Bitmap[]): Uint8Array {
  const mq = new MqEncoder();
  const bitmapContexts = newMqContexts(TEMPLATE0_CONTEXTS);
  const deltaHeight = new IntegerEncoder();
  const deltaWidth = new IntegerEncoder();
  const exportRuns = new IntegerEncoder();
  let classHeight = 0;
  let index = 0;
  while (index < symbols.length) {
    const height = (symbols[index] as Bitmap).height;
    deltaHeight.encode(mq, height - classHeight);
    classHeight = height;
    let symbolWidth = 0;
    for (; index < symbols.length && (symbols[index] as Bitmap).height === height; index++) {
      const symbol = symbols[index] as Bitmap;
      deltaWidth.encode(mq, symbol.width - symbolWidth);
      symbolWidth = symbol.width;
      encodeGenericPixels(mq, bitmapContexts, symbol, false);
    }
    deltaWidth.encode(mq, null);
  }
  // Export flags as alternating run lengths starting with "not exported": none, then every symbol.
  exportRuns.encode(mq, 0);
  exportRuns.encode(mq, symbols.length);
  const flags = Uint8Array.of(0, 0);
  const counts = new Uint8Array(8);
  const view = new DataView(counts.buffer);
  view.setUint32(0, symbols.length);
  view.setUint32(4, symbols.length);
  return concatBytes(flags, adaptivePixelBytes(), counts, mq.finish());
}
