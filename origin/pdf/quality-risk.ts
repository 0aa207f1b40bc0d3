// How visibly a rewrite may degrade an image, from how far its resolution drops and how far
// its re-encode may: the perceptual floor it meets, or a fixed JPEG quality's usual effect.
// A document's risk is that of its most affected image.
import type { PdfQualityRisk } from "../../contracts/origin/pdf-analyze.ts";
import { QUALITY_LEVEL_TARGETS } from "../../contracts/perceptual-quality.ts";

export type QualityRisk = PdfQualityRisk;

const ORDER: QualityRisk[] = ["none", "low", "medium", "high"];

export function worstRisk(risks: Iterable<QualityRisk>): QualityRisk {
  let worst = 0;
  for (const risk of risks) worst = Math.max(worst, ORDER.indexOf(risk));
  return ORDER[worst] ?? "none";
}

/** Risk of bringing an image to newDpi: none at print resolution, high below screen-plus. */
function resolutionRisk(oldDpi: number, newDpi: number): QualityRisk {
  if (newDpi >= oldDpi * 0.99 || newDpi >= 250) return "none";
  if (newDpi >= 140) return "low";
  if (newDpi >= 90) return "medium";
  return "high";
}

/** Risk of a lossy re-encode at quality, given the source's quality (100 for lossless sources). */
function jpegRisk(sourceQuality: number, quality: number): QualityRisk {
  if (quality >= sourceQuality || quality >= 88) return "none";
  if (quality >= 70) return "low";
  if (quality >= 50) return "medium";
  return "high";
}

/**
 * Risk of a lossy re-encode that scores at least `floor` in SSIMULACRA 2, by the quality level the
 * floor reaches: `best` or above none, `good` low, `eco` medium, below it high.
 */
function floorRisk(floor: number): QualityRisk {
  if (floor >= QUALITY_LEVEL_TARGETS.best) return "none";
  if (floor >= QUALITY_LEVEL_TARGETS.good) return "low";
  if (floor >= QUALITY_LEVEL_TARGETS.eco) return "medium";
  return "high";
}

export function imageRewriteRisk(change: { oldDpi: number; newDpi: number; lossy: boolean; sourceQuality: number; quality: number; perceptualFloor: number | null }): QualityRisk {
  const encodeRisk = change.quality >= change.sourceQuality || change.perceptualFloor === null ? jpegRisk(change.sourceQuality, change.quality) : floorRisk(change.perceptualFloor);
  const jpeg = change.lossy ? encodeRisk : "none";
  return worstRisk([resolutionRisk(change.oldDpi, change.newDpi), jpeg]);
}
