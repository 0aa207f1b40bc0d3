// How visibly a rewrite may degrade an image, from how far its resolution drops and how far
// its re-encode may: the perceptual floor it meets, or a fixed JPEG quality's usual effect.
// A document's risk is that of its most affected image.
import type { PdfQualityRisk } from "../../contracts/origin/pdf-analyze.ts";

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
 * Risk of a lossy re-encode that scores at least `floor` in SSIMULACRA 2: the bands are the
 * scores of the qualities jpegRisk draws its lines at (q88 about 84, q70 about 72, q50 about 61
 * on typical photos), so a floor and the quality that usually meets it carry the same risk.
 */
function floorRisk(floor: number): QualityRisk {
  if (floor >= 84) return "none";
  if (floor >= 72) return "low";
  if (floor >= 61) return "medium";
  return "high";
}

export function imageRewriteRisk(change: { oldDpi: number; newDpi: number; lossy: boolean; sourceQuality: number; quality: number; perceptualFloor: number | null }): QualityRisk {
  const encodeRisk = change.quality >= change.sourceQuality || change.perceptualFloor === null ? jpegRisk(change.sourceQuality, change.quality) : floorRisk(change.perceptualFloor);
  const jpeg = change.lossy ? encodeRisk : "none";
  return worstRisk([resolutionRisk(change.oldDpi, change.newDpi), jpeg]);
}
