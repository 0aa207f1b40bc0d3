import { describe, expect, it } from "vitest";
import { fitQuality } from "./fit-quality.ts";
import { ANNEX_K_CHROMINANCE, ANNEX_K_LUMINANCE, BASELINE_MAX_STEP, EXTENDED_MAX_STEP, scaleQuantTable } from "./ijg-tables.ts";
import { MOZJPEG_DEFAULT_TABLE } from "./mozjpeg-tables.ts";
import type { JpegQuantTables, QuantTable } from "./read-quant-tables.ts";

function quantTables(tables: readonly QuantTable[], componentTableIds: readonly number[]): JpegQuantTables {
  return { tables: new Map(tables.map((table) => [table.id, table])), componentTableIds };
}

function table(id: number, values: readonly number[], precision: 8 | 16 = 8): QuantTable {
  return { id, precision, values };
}

const families = [
  { encoder: "ijg", luminance: ANNEX_K_LUMINANCE, chrominance: ANNEX_K_CHROMINANCE },
  { encoder: "mozjpeg", luminance: MOZJPEG_DEFAULT_TABLE, chrominance: MOZJPEG_DEFAULT_TABLE },
] as const;

describe("fitQuality", () => {
  it.each(families)("recovers every $encoder quality from 4 to 99 exactly", ({ encoder, luminance, chrominance }) => {
    for (let quality = 4; quality <= 99; quality++) {
      const observed = quantTables(
        [table(0, scaleQuantTable(luminance, quality, BASELINE_MAX_STEP)), table(1, scaleQuantTable(chrominance, quality, BASELINE_MAX_STEP))],
        [0, 1, 1],
      );
      expect(fitQuality(observed)).toEqual({ quality, encoder, error: 0, exact: true });
    }
  });

  it("predicts unclamped steps for 16-bit tables", () => {
    const observed = quantTables(
      [table(0, scaleQuantTable(ANNEX_K_LUMINANCE, 10, EXTENDED_MAX_STEP), 16), table(1, scaleQuantTable(ANNEX_K_CHROMINANCE, 10, EXTENDED_MAX_STEP), 16)],
      [0, 1, 1],
    );
    expect(observed.tables.get(0)?.values.some((step) => step > 255)).toBe(true);
    expect(fitQuality(observed)).toEqual({ quality: 10, encoder: "ijg", error: 0, exact: true });
  });

  it("resolves identical tables to the standard family and the highest quality", () => {
    const ones = quantTables([table(0, new Array(64).fill(1)), table(1, new Array(64).fill(1))], [0, 1, 1]);
    expect(fitQuality(ones)).toEqual({ quality: 100, encoder: "ijg", error: 0, exact: true });
    const saturated = quantTables([table(0, new Array(64).fill(255)), table(1, new Array(64).fill(255))], [0, 1, 1]);
    expect(fitQuality(saturated)).toMatchObject({ quality: 1, encoder: "ijg", exact: true });
  });

  it("fits a grayscale image on its one table, even when a chroma table is defined but unused", () => {
    const observed = quantTables(
      [table(0, scaleQuantTable(MOZJPEG_DEFAULT_TABLE, 70, BASELINE_MAX_STEP)), table(1, new Array(64).fill(3))],
      [0],
    );
    expect(fitQuality(observed)).toEqual({ quality: 70, encoder: "mozjpeg", error: 0, exact: true });
  });

  it("fits libjpeg's CMYK layout, where every component shares table 0, as luminance", () => {
    const observed = quantTables([table(0, scaleQuantTable(ANNEX_K_LUMINANCE, 88, BASELINE_MAX_STEP))], [0, 0, 0, 0]);
    expect(fitQuality(observed)).toEqual({ quality: 88, encoder: "ijg", error: 0, exact: true });
  });

  it("falls back to slot 0 as luminance when no frame header names the tables", () => {
    const observed = quantTables(
      [table(1, scaleQuantTable(ANNEX_K_CHROMINANCE, 40, BASELINE_MAX_STEP)), table(0, scaleQuantTable(ANNEX_K_LUMINANCE, 40, BASELINE_MAX_STEP))],
      [],
    );
    expect(fitQuality(observed)).toEqual({ quality: 40, encoder: "ijg", error: 0, exact: true });
  });

  it("reports a non-standard table as inexact with the nearest quality and its residual", () => {
    const luminance = scaleQuantTable(ANNEX_K_LUMINANCE, 60, BASELINE_MAX_STEP);
    const chrominance = scaleQuantTable(ANNEX_K_CHROMINANCE, 60, BASELINE_MAX_STEP);
    const predictedDc = luminance[0] as number;
    luminance[0] = predictedDc * 2;
    const estimate = fitQuality(quantTables([table(0, luminance), table(1, chrominance)], [0, 1, 1]));
    expect(estimate).toMatchObject({ quality: 60, encoder: "ijg", exact: false });
    // One step of 128 is off by 100%.
    expect(estimate.error).toBeCloseTo(1 / 128, 10);
  });

  it("does not claim an exact fit for a table from neither family", () => {
    const flat = quantTables([table(0, new Array(64).fill(16)), table(1, new Array(64).fill(16))], [0, 1, 1]);
    const estimate = fitQuality(flat);
    expect(estimate.exact).toBe(false);
    expect(estimate.error).toBeGreaterThan(0.1);
  });
});
