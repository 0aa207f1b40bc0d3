/**
 * ITU T.81 Annex K.1 example tables (K.1 luminance, K.2 chrominance), row-major.
 * libjpeg, libjpeg-turbo (sharp without `mozjpeg: true`) and most encoders that
 * expose a 1..100 quality scale them with the IJG curve below.
 */
export const ANNEX_K_LUMINANCE: readonly number[] = [
  16, 11, 10, 16, 24, 40, 51, 61,
  12, 12, 14, 19, 26, 58, 60, 55,
  14, 13, 16, 24, 40, 57, 69, 56,
  14, 17, 22, 29, 51, 87, 80, 62,
  18, 22, 37, 56, 68, 109, 103, 77,
  24, 35, 55, 64, 81, 104, 113, 92,
  49, 64, 78, 87, 103, 121, 120, 101,
  72, 92, 95, 98, 112, 100, 103, 99,
];

export const ANNEX_K_CHROMINANCE: readonly number[] = [
  17, 18, 24, 47, 99, 99, 99, 99,
  18, 21, 26, 66, 99, 99, 99, 99,
  24, 26, 56, 99, 99, 99, 99, 99,
  47, 66, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99,
];

/** Largest step an 8-bit (baseline) DQT entry can hold. */
export const BASELINE_MAX_STEP = 255;
/** Largest step libjpeg writes into a 16-bit DQT entry (enough for 12-bit samples). */
export const EXTENDED_MAX_STEP = 32767;

/** IJG percentage scale for a 1..100 quality: 5000/q below 50 (integer division), 200-2q from 50. */
export function ijgScaleFactor(quality: number): number {
  return quality < 50 ? Math.floor(5000 / quality) : 200 - 2 * quality;
}

/** The table an IJG-style encoder writes for `base` at `quality`, steps clamped to 1..maxStep. */
export function scaleQuantTable(base: readonly number[], quality: number, maxStep: number): number[] {
  const scale = ijgScaleFactor(quality);
  return base.map((step) => Math.min(maxStep, Math.max(1, Math.floor((step * scale + 50) / 100))));
}
