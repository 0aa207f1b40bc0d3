// A page of the PDF before and after compress, in the before/after slider the images use: both
// drawn by the service's page transform at one width, from the original and from the result.
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../api/api-client.ts";
import { asProblem, type ApiProblem } from "../api/api-problem.ts";
import type { PdfAnalysis } from "../api/types.ts";
import { html } from "../html.ts";
import { CompareSlider } from "../images/compare-slider.ts";
import { Busy } from "../ui/busy.ts";
import { ProblemView } from "../ui/problem-view.ts";
import type { TransformAccess } from "../urls/transform-access.ts";
import { COMPARE_WIDTH, COMPARED_PAGES_MAX } from "./page-picture-plan.ts";
import { pagePictureUrls } from "./page-pictures.ts";

interface Pair {
  page: number;
  before: string;
  after: string;
}

export function PageCompare({ api, access, analysis, beforeFileId, afterFileId }: { api: ApiClient; access: TransformAccess; analysis: PdfAnalysis; beforeFileId: string; afterFileId: string }) {
  const [page, setPage] = useState(1);
  const [pair, setPair] = useState<Pair | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const keyKnown = access.keyId.trim() !== "";
  useEffect(() => {
    if (!keyKnown) return;
    setProblem(null);
    Promise.all([pagePictureUrls(api, access, beforeFileId, [page], COMPARE_WIDTH), pagePictureUrls(api, access, afterFileId, [page], COMPARE_WIDTH)]).then(
      ([before, after]) => setPair({ page, before: before.get(page)!, after: after.get(page)! }),
      (error) => setProblem(asProblem(error)),
    );
  }, [api, access, beforeFileId, afterFileId, page, keyKnown]);

  const choices = Math.min(analysis.composition.pages, COMPARED_PAGES_MAX);
  const size = analysis.composition.page_sizes_pt[page - 1] ?? { width: 1, height: 1 };
  return html`<section class="page-compare" aria-labelledby="pdf-compare-heading">
    <h4 id="pdf-compare-heading">Pages before and after</h4>
    <div class="field">
      <label for="pdf-compare-page">Page to compare${choices < analysis.composition.pages ? ` (the first ${choices})` : ""}</label>
      <select id="pdf-compare-page" value=${page} onChange=${(event: Event) => setPage(Number((event.currentTarget as HTMLSelectElement).value))}>
        ${Array.from({ length: choices }, (_, index) => html`<option value=${index + 1}>Page ${index + 1}</option>`)}
      </select>
    </div>
    ${keyKnown ? null : html`<p class="note">The comparison needs this key's id: give it under URLs.</p>`}
    ${problem === null ? null : html`<${ProblemView} problem=${problem} />`}
    ${pair === null || pair.page !== page
      ? keyKnown && problem === null
        ? html`<${Busy} label=${`Preparing page ${page}`} />`
        : null
      : html`<${CompareSlider}
          key=${page}
          id="pdf-compare"
          name=${`Page ${page}`}
          beforeUrl=${pair.before}
          afterUrl=${pair.after}
          width=${COMPARE_WIDTH}
          height=${Math.round((COMPARE_WIDTH * size.height) / size.width)}
        />`}
  </section>`;
}
