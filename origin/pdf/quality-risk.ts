// How visibly a rewrite may degrade an image, from how far its resolution and its
// JPEG quality drop. A document's risk is that of its most affected image.
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

export function imageRewriteRisk(change: { oldDpi: number; newDpi: number; lossy: boolean; sourceQuality: number; quality: number }): QualityRisk {
  const jpeg = change.lossy ? jpegRisk(change.sourceQuality, change.quality) : "none";
  return worstRisk([resolutionRisk(change.oldDpi, change.newDpi), jpeg]);
}
