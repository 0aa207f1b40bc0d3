// Each profile's projected size as a bar against the original's, labelled with its bytes, the
// saving and the quality risk in words (the colour repeats the risk, it never carries it alone).
import { html } from "../html.ts";
import type { PdfAnalysis } from "../api/types.ts";
import { formatByteSize } from "../../contracts/byte-size.ts";
import { profileRows, type QualityRisk } from "./profile-rows.ts";

/** Bar colours with at least 3:1 contrast on white. */
const RISK_COLOURS: Record<QualityRisk, string> = { none: "#047857", low: "#1d4ed8", medium: "#b45309", high: "#b91c1c" };

export function ProfileChart({ analysis }: { analysis: PdfAnalysis }) {
  const { rows, originalShare } = profileRows(analysis);
  return html`<figure class="profile-chart">
    <figcaption>Projected size per profile, against the original's ${formatByteSize(analysis.stats.original_bytes)} (the line)</figcaption>
    <ul>
      ${rows.map(
        (row) => html`<li class="profile-row" data-profile=${row.profile} data-risk=${row.risk}>
          <span class="profile-name">${row.profile}</span>
          <span class="profile-track">
            <span class="profile-bar" style=${`width: ${(row.share * 100).toFixed(2)}%; background: ${RISK_COLOURS[row.risk]}`}></span>
            <span class="profile-original" style=${`left: ${(originalShare * 100).toFixed(2)}%`} aria-hidden="true"></span>
          </span>
          <span class="profile-figures">${formatByteSize(row.estimatedBytes)} · ${(row.savingsRatio * 100).toFixed(0)}% saved · quality risk ${row.risk} · ${row.imagesRewritten} images rewritten</span>
        </li>`,
      )}
    </ul>
  </figure>`;
}
