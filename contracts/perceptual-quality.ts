// Perceptual quality levels: `quality: "auto"` on optimize and batch, the `q_auto` transform
// token, and the PDF profiles' floors all name a level, and a level is a SSIMULACRA 2 score the
// output must reach. The targets are calibrated on the corpus (see origin/quality/README.md):
// `good` sits at or above the score fixed quality 76 reaches on its worst 10% of photos in JPEG
// and WebP, so auto never looks worse than the documented default does on a hard image. AVIF's
// quality scale runs higher (its q76 looks like JPEG's q88-94) and one number serves every
// format, so an AVIF `good` is JPEG-q76-good, not AVIF-q76-good.
// Plain data: the transform URL builder in the browser reaches this file, so its zod schema lives
// in perceptual-quality-schema.ts, which only the API side imports.
export const QUALITY_LEVELS = ["low", "eco", "good", "best"] as const;
export type QualityLevel = (typeof QUALITY_LEVELS)[number];

/** `auto` alone means this level, as Cloudinary's `q_auto` does. */
export const DEFAULT_QUALITY_LEVEL: QualityLevel = "good";

/** The SSIMULACRA 2 score (100 identical, ~90 visually lossless) each level's output reaches at least. */
export const QUALITY_LEVEL_TARGETS: Readonly<Record<QualityLevel, number>> = {
  low: 50,
  eco: 60,
  good: 69,
  best: 79,
};

/** `Save-Data: on` asks for fewer bytes: one level down, `low` staying `low`. */
export function lowerQualityLevel(level: QualityLevel): QualityLevel {
  return QUALITY_LEVELS[Math.max(0, QUALITY_LEVELS.indexOf(level) - 1)]!;
}

export const AUTO_QUALITY_VALUES = ["auto", ...QUALITY_LEVELS.map((level) => `auto:${level}` as const)] as const;
export type AutoQuality = (typeof AUTO_QUALITY_VALUES)[number];

/** The level an `auto` / `auto:<level>` spelling names, or null for any other string. */
export function autoQualityLevel(value: string): QualityLevel | null {
  if (value === "auto") return DEFAULT_QUALITY_LEVEL;
  const level = value.startsWith("auto:") ? value.slice("auto:".length) : "";
  return (QUALITY_LEVELS as readonly string[]).includes(level) ? (level as QualityLevel) : null;
}
