// Segment headers and the fixed-layout segment data of T.88 section 7, for the
// embedded organisation PDF's JBIG2Decode reads: no file header, a globals stream
// (page association 0) and one stream per page (page association 1), without
// end-of-page or end-of-file segments.
import { concatBytes } from "../../../contracts/encoding/concat-bytes.ts";
import { TEMPLATE0_ADAPTIVE_PIXELS } from "./generic-region.ts";

export const SEGMENT_TYPE = {
  symbolDictionary: 0,
  immediateLosslessTextRegion: 7,
  immediateLosslessGenericRegion: 39,
  pageInformation: 48,
} as const;

export interface Segment {
  number: number;
  type: number;
  page: number;
  referredTo: number[];
  data: Uint8Array;
}

class ByteWriter {
  private readonly bytes: number[] = [];

  u8(value: number): this {
    this.bytes.push(value & 0xff);
    return this;
  }

  u16(value: number): this {
    return this.u8(value >>> 8).u8(value);
  }

  u32(value: number): this {
    return this.u16(value >>> 16).u16(value & 0xffff);
  }

  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

function segmentHeader({ number, type, page, referredTo, data }: Segment): Uint8Array {
  if (referredTo.length > 4) throw new Error("more than 4 referred-to segments needs the long count form");
  const writer = new ByteWriter().u32(number);
  const wideAssociation = page > 0xff;
  writer.u8((wideAssociation ? 0x40 : 0) | type);
  writer.u8(referredTo.length << 5);
  for (const referred of referredTo) {
    if (number <= 256) writer.u8(referred);
    else if (number <= 65536) writer.u16(referred);
    else writer.u32(referred);
  }
  if (wideAssociation) writer.u32(page);
  else writer.u8(page);
  return writer.u32(data.length).done();
}

/** Segments one after another, each header followed by its data. */
export function serializeSegments(segments: Segment[]): Uint8Array {
  return concatBytes(...segments.flatMap((segment) => [segmentHeader(segment), segment.data]));
}

/** Page information (7.4.8): a lossless page of known size, white by default, regions combined with OR, not striped. */
export function pageInformationData(width: number, height: number): Uint8Array {
  return new ByteWriter().u32(width).u32(height).u32(0).u32(0).u8(0x01).u16(0).done();
}

/** Region segment information (7.4.1) for a region at (x, y), combined with OR. */
export function regionInformation(width: number, height: number, x: number, y: number): Uint8Array {
  return new ByteWriter().u32(width).u32(height).u32(x).u32(y).u8(0).done();
}

/** Template 0's adaptive pixel bytes, as signed bytes. */
export function adaptivePixelBytes(): Uint8Array {
  return Uint8Array.from(TEMPLATE0_ADAPTIVE_PIXELS, (value) => value & 0xff);
}

/** Generic region segment data (7.4.6): arithmetic, template 0, typical prediction as asked. */
export function genericRegionData(width: number, height: number, typicalPrediction: boolean, coded: Uint8Array): Uint8Array {
  const flags = typicalPrediction ? 0x08 : 0;
  return concatBytes(regionInformation(width, height, 0, 0), Uint8Array.of(flags), adaptivePixelBytes(), coded);
}
