import { ZIGZAG_TO_NATURAL } from "./zigzag-order.ts";

/** Builders for hand-made JPEG headers, so tests can cover layouts sharp never writes. */

export type FixtureTable = { id: number; precision: 8 | 16; naturalOrder: readonly number[] };

export function segment(marker: number, payload: readonly number[]): number[] {
  const length = payload.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

/** One DQT segment holding every given table, entries written in zigzag order. */
export function dqtSegment(tables: readonly FixtureTable[]): number[] {
  const payload: number[] = [];
  for (const { id, precision, naturalOrder } of tables) {
    payload.push(((precision === 8 ? 0 : 1) << 4) | id);
    for (const naturalIndex of ZIGZAG_TO_NATURAL) {
      const step = naturalOrder[naturalIndex] as number;
      if (precision === 8) payload.push(step);
      else payload.push(step >> 8, step & 0xff);
    }
  }
  return segment(0xdb, payload);
}

/** Baseline SOF0 for a 16x16 image whose components use the given quantization slots. */
export function sofSegment(componentTableIds: readonly number[]): number[] {
  const payload = [8, 0, 16, 0, 16, componentTableIds.length];
  componentTableIds.forEach((tableId, index) => payload.push(index + 1, 0x11, tableId));
  return segment(0xc0, payload);
}

export function jpegFromSegments(...segments: readonly number[][]): Uint8Array {
  const startOfScan = segment(0xda, [1, 1, 0x00, 0, 63, 0]);
  return Uint8Array.from([0xff, 0xd8, ...segments.flat(), ...startOfScan, 0xff, 0xd9]);
}
