import { fitQuality } from "./fit-quality.ts";
import type { JpegQualityEstimate } from "./fit-quality.ts";
import { readQuantTables } from "./read-quant-tables.ts";

export type { JpegEncoderFamily, JpegQualityEstimate } from "./fit-quality.ts";

/**
 * Estimates the 1..100 quality a JPEG was encoded at by fitting its quantization
 * tables to the IJG (Annex K) and MozJPEG default tables. Reads only the header,
 * up to the first scan. Returns null for bytes that are not a JPEG, have a
 * malformed DQT, or carry no quantization table; never throws.
 */
export function estimateJpegQuality(jpeg: Uint8Array): JpegQualityEstimate | null {
  const quantTables = readQuantTables(jpeg);
  return quantTables === null ? null : fitQuality(quantTables);
}
