// The pages of an analyzed PDF as pictures with their images' boxes, a few at a time, and the
// legend of DPI colours. The pictures are pg_ transforms of the stored PDF (no PDF engine in the
// browser); the boxes are analyze's placements.
import { useEffect, useState } from "preact/hooks";
import { prices } from "../../contracts/pricing.ts";
import type { ApiClient } from "../api/api-client.ts";
import { asProblem, type ApiProblem } from "../api/api-problem.ts";
import type { PdfAnalysis } from "../api/types.ts";
import { html } from "../html.ts";
import { formatCost } from "../ui/format.ts";
import { ProblemView } from "../ui/problem-view.ts";
import type { TransformAccess } from "../urls/transform-access.ts";
import { DPI_BANDS } from "./dpi-band.ts";
import { pageViews } from "./page-boxes.ts";
import { THUMBNAIL_PAGES_MAX, THUMBNAIL_STEP, THUMBNAIL_WIDTH } from "./page-picture-plan.ts";
import { pagePictureUrls } from "./page-pictures.ts";
import { PageSheet } from "./page-sheet.ts";

export function PagePicturesView({ api, access, fileId, analysis }: { api: ApiClient; access: TransformAccess; fileId: string; analysis: PdfAnalysis }) {
  const pages = analysis.composition.pages;
  const limit = Math.min(pages, THUMBNAIL_PAGES_MAX);
  const [shown, setShown] = useState(Math.min(limit, THUMBNAIL_STEP));
  const [urls, setUrls] = useState<Map<number, string>>(new Map());
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const keyKnown = access.keyId.trim() !== "";

  useEffect(() => {
    const missing = Array.from({ length: shown }, (_, index) => index + 1).filter((page) => !urls.has(page));
    if (!keyKnown || missing.length === 0) return;
    pagePictureUrls(api, access, fileId, missing, THUMBNAIL_WIDTH).then(
      (found) => setUrls((known) => new Map([...known, ...found])),
      (error) => setProblem(asProblem(error)),
    );
  }, [api, access, fileId, shown, keyKnown]);

  const views = pageViews(analysis, shown);
  const listed = analysis.images.reduce((sum, image) => sum + image.placements.length, 0);
  const drawn = analysis.images.reduce((sum, image) => sum + image.placement_count, 0);
  return html`<section class="page-pictures" aria-labelledby="pdf-pages-heading">
    <h4 id="pdf-pages-heading">Pages, with each image's box coloured by the DPI it is drawn at</h4>
    <ul class="dpi-legend" aria-label="DPI colours">
      ${DPI_BANDS.map((band) => html`<li data-dpi-band=${band.id}><span class="dpi-swatch" style=${`background: ${band.colour}`} aria-hidden="true"></span>${band.label}</li>`)}
    </ul>
    <p class="pdf-hint">
      Each page picture is a <code>pg_</code> transform of the stored PDF, ${THUMBNAIL_WIDTH} px wide: ${formatCost(prices.transform)} the first time it is made, free after.
      ${listed < drawn ? ` Boxes are shown for the first ${listed} of ${drawn} image drawings (analyze lists that many).` : ""}
    </p>
    ${keyKnown ? null : html`<p class="note">The page pictures need this key's id: give it under URLs. The boxes are drawn on blank pages meanwhile.</p>`}
    ${problem === null ? null : html`<${ProblemView} problem=${problem} />`}
    <ol class="page-grid">
      ${views.map((view) => html`<li><${PageSheet} view=${view} url=${urls.get(view.page) ?? null} /></li>`)}
    </ol>
    ${shown < limit
      ? html`<button type="button" onClick=${() => setShown(Math.min(limit, shown + THUMBNAIL_STEP))}>Show ${Math.min(THUMBNAIL_STEP, limit - shown)} more pages</button>`
      : null}
    ${limit < pages ? html`<p class="pdf-hint">The first ${limit} of ${pages} pages can be shown: a file has a limited number of transforms, and the comparison below needs some.</p>` : null}
  </section>`;
}
