// analyze's per-profile projection as rows for a chart: each profile's projected bytes against the
// original's, and its quality risk, in the order profiles go from smallest to most faithful.
import type { PdfAnalysis } from "../api/types.ts";

export type ProjectedProfile = keyof PdfAnalysis["projection"];
export type QualityRisk = PdfAnalysis["projection"][ProjectedProfile]["quality_risk"];

export interface ProfileRow {
  profile: ProjectedProfile;
  estimatedBytes: number;
  savingsRatio: number;
  risk: QualityRisk;
  imagesRewritten: number;
  /** estimatedBytes as a share of the longest bar (the original or the largest projection), 0..1. */
  share: number;
}

const ORDER: readonly ProjectedProfile[] = ["screen", "email", "ebook", "print", "prepress"];

export function profileRows(analysis: Pick<PdfAnalysis, "projection" | "stats">): { rows: ProfileRow[]; originalShare: number } {
  const profiles = ORDER.filter((profile) => profile in analysis.projection);
  const longest = Math.max(analysis.stats.original_bytes, ...profiles.map((profile) => analysis.projection[profile].estimated_bytes), 1);
  const rows = profiles.map((profile) => {
    const projection = analysis.projection[profile];
    return {
      profile,
      estimatedBytes: projection.estimated_bytes,
      savingsRatio: projection.savings_ratio,
      risk: projection.quality_risk,
      imagesRewritten: projection.images_rewritten,
      share: projection.estimated_bytes / longest,
    };
  });
  return { rows, originalShare: analysis.stats.original_bytes / longest };
}
