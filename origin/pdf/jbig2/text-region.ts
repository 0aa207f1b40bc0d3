// Text region segment data (T.88 7.4.3 and the inverse of 6.4.5): arithmetic
// coding without refinement, symbols placed by their bottom-left corner so the
// letters of a line share strips, drawn with OR on a white region.
import type { Bitmap } from "./bitmap.ts";
import { IntegerEncoder, SymbolIdEncoder, symbolCodeLength } from "./integer-encoder.ts";
import { MqEncoder } from "./mq-encoder.ts";
import { concatBytes } from "../../../contracts/encoding/concat-bytes.ts";
import { regionInformation } from "./segments.ts";

export interface SymbolInstance {
  id: number;
  /** Top-left corner of the symbol on the page. */
  x: number;
  y: number;
}

export interface TextRegion {
  width: number;
  height: number;
  /** The referred dictionaries' symbols, in id order. */
  symbols: readonly Bitmap[];
  instances: readonly SymbolInstance[];
}

// One-row strips measured smallest on the corpus scan (glyphs of a line share their bottom row).
const LOG_STRIP_SIZE = 0;
const STRIP_SIZE = 1 << LOG_STRIP_SIZE;
const REFERENCE_CORNER_BOTTOM_LEFT = 0;

interface Placement {
  id: number;
  s: number;
  t: number;
  strip: number;
  width: number;
}

export function textRegionData({ width, height, symbols, instances }: TextRegion): Uint8Array {
  const placements = instances.map(({ id, x, y }): Placement => {
    const symbol = symbols[id] as Bitmap;
    const t = y + symbol.height - 1;
    return { id, s: x, t, strip: t - (t % STRIP_SIZE), width: symbol.width };
  });
  placements.sort((a, b) => a.strip - b.strip || a.s - b.s);
  const mq = new MqEncoder();
  const stripDelta = new IntegerEncoder();
  const firstS = new IntegerEncoder();
  const deltaS = new IntegerEncoder();
  const instanceT = new IntegerEncoder();
  const symbolId = new SymbolIdEncoder(symbolCodeLength(symbols.length));
  // The initial STRIPT, then per strip: its T step, the first S against the previous strip's, the S gaps, OOB.
  stripDelta.encode(mq, 0);
  let stripT = 0;
  let firstSOfStrip = 0;
  let index = 0;
  while (index < placements.length) {
    const strip = (placements[index] as Placement).strip;
    stripDelta.encode(mq, (strip - stripT) / STRIP_SIZE);
    stripT = strip;
    let currentS = 0;
    for (let first = true; index < placements.length && (placements[index] as Placement).strip === strip; index++, first = false) {
      const placement = placements[index] as Placement;
      if (first) {
        firstS.encode(mq, placement.s - firstSOfStrip);
        firstSOfStrip = placement.s;
      } else {
        deltaS.encode(mq, placement.s - currentS);
      }
      // T.88 6.4.9: with one-row strips the instance T is implied, not coded.
      if (STRIP_SIZE > 1) instanceT.encode(mq, placement.t - strip);
      symbolId.encode(mq, placement.id);
      currentS = placement.s + placement.width - 1;
    }
    deltaS.encode(mq, null);
  }
  const flags = (LOG_STRIP_SIZE << 2) | (REFERENCE_CORNER_BOTTOM_LEFT << 4);
  const header = new Uint8Array(6);
  const view = new DataView(header.buffer);
  view.setUint16(0, flags);
  view.setUint32(2, placements.length);
  return concatBytes(regionInformation(width, height, 0, 0), header, mq.finish());
}
