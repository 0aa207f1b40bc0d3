import { ANNEX_K_CHROMINANCE, ANNEX_K_LUMINANCE, BASELINE_MAX_STEP, EXTENDED_MAX_STEP, scaleQuantTable } from "./ijg-tables.ts";
import { MOZJPEG_DEFAULT_TABLE } from "./mozjpeg-tables.ts";
import type { JpegQuantTables, QuantTable } from "./read-quant-tables.ts";

export type JpegEncoderFamily = "ijg" | "mozjpeg";

export type JpegQualityEstimate = {
  /** Integer 1..100 on the IJG quality scale of the best-fitting family. */
  quality: number;
  encoder: JpegEncoderFamily;
  /** Mean over all fitted steps of |observed - predicted| / predicted; 0 when every step matches. */
  error: number;
  exact: boolean;
};

type TableFamily = {
  encoder: JpegEncoderFamily;
  luminance: readonly number[];
  chrominance: readonly number[];
};

// IJG first and qualities from high to low, with ties keeping the first candidate:
// identical tables (all ones at 100, all 255 at the bottom of the scale) then
// resolve to the standard family and the highest quality that produces them.
const FAMILIES: readonly TableFamily[] = [
  { encoder: "ijg", luminance: ANNEX_K_LUMINANCE, chrominance: ANNEX_K_CHROMINANCE },
  { encoder: "mozjpeg", luminance: MOZJPEG_DEFAULT_TABLE, chrominance: MOZJPEG_DEFAULT_TABLE },
];

type FittedTable = { observed: QuantTable; role: "luminance" | "chrominance" };

/**
 * Finds the encoder family and quality whose scaled base tables are closest to
 * the observed ones. The first component's table is fitted as luminance and the
 * other components' tables as chrominance, which is how libjpeg assigns them for
 * YCbCr, grayscale and YCCK; for CMYK it puts every component on table 0.
 */
export function fitQuality(quantTables: JpegQuantTables): JpegQualityEstimate {
  const fitted = assignRoles(quantTables);
  let best: JpegQualityEstimate | undefined;
  for (const family of FAMILIES) {
    for (let quality = 100; quality >= 1; quality--) {
      const error = meanRelativeResidual(fitted, family, quality);
      if (best === undefined || error < best.error) best = { quality, encoder: family.encoder, error, exact: error === 0 };
    }
  }
  // FAMILIES and the quality range are non-empty, so the loop always sets best.
  return best as JpegQualityEstimate;
}

function assignRoles({ tables, componentTableIds }: JpegQuantTables): FittedTable[] {
  const usedIds = componentTableIds.filter((id) => tables.has(id));
  // Without a usable SOF, fall back to libjpeg's slots: lowest luminance, the rest chrominance.
  const ids = [...new Set(usedIds.length > 0 ? usedIds : [...tables.keys()].sort((a, b) => a - b))];
  return ids.map((id, index) => ({
    observed: tables.get(id) as QuantTable,
    role: index === 0 ? "luminance" : "chrominance",
  }));
}

function meanRelativeResidual(fitted: readonly FittedTable[], family: TableFamily, quality: number): number {
  let sum = 0;
  let count = 0;
  for (const { observed, role } of fitted) {
    const maxStep = observed.precision === 8 ? BASELINE_MAX_STEP : EXTENDED_MAX_STEP;
    const predicted = scaleQuantTable(family[role], quality, maxStep);
    predicted.forEach((step, i) => {
      sum += Math.abs((observed.values[i] as number) - step) / step;
    });
    count += predicted.length;
  }
  return sum / count;
}
