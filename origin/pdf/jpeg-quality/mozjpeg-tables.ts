/**
 * MozJPEG's default base table: index 3 of `std_luminance_quant_tbl` in mozjpeg's
 * jcparam.c (N. Robidoux's table from the ImageMagick forum), row-major. The
 * JCP_MAX_COMPRESSION profile mozjpeg starts in selects index 3, and sharp's
 * `mozjpeg: true` sets `quantisationTable: 3` explicitly. Index 3 of the
 * chrominance array holds the same numbers, so one table serves both planes.
 * Steps above 255 are intended: the baseline clamp applies after scaling.
 */
export const MOZJPEG_DEFAULT_TABLE: readonly number[] = [
  16, 16, 16, 18, 25, 37, 56, 85,
  16, 17, 20, 27, 34, 40, 53, 75,
  16, 20, 24, 31, 43, 62, 91, 135,
  18, 27, 31, 40, 53, 74, 106, 156,
  25, 34, 43, 53, 69, 94, 131, 189,
  37, 40, 62, 74, 94, 124, 169, 238,
  56, 53, 91, 106, 131, 169, 226, 311,
  85, 75, 135, 156, 189, 238, 311, 418,
];
