// One page as a picture with every image drawn on it outlined in its DPI band's colour and
// labelled with its DPI. The sheet keeps the page's proportions, so the boxes (shares of the page)
// sit where the images are whether or not the picture has loaded.
import { useState } from "preact/hooks";
import { html } from "../html.ts";
import type { PageView } from "./page-boxes.ts";
import { pageSummary } from "./page-boxes.ts";

export function PageSheet({ view, url }: { view: PageView; url: string | null }) {
  const [failed, setFailed] = useState(false);
  return html`<figure class="page-thumb" data-page=${view.page}>
    <div class="page-sheet" style=${`aspect-ratio: ${view.widthPt} / ${view.heightPt}`}>
      ${url === null ? null : html`<img src=${url} alt=${`Page ${view.page}`} loading="lazy" onError=${() => setFailed(true)} />`}
      ${view.boxes.map(
        (box) => html`<span
          class="image-box"
          data-object=${box.objectNumber}
          data-dpi-band=${box.band.id}
          style=${`left: ${box.left}%; top: ${box.top}%; width: ${box.width}%; height: ${box.height}%; border-color: ${box.band.colour}`}
          aria-hidden="true"
          ><span class="dpi-badge" style=${`background: ${box.band.colour}`}>${Math.round(box.dpi)}</span></span
        >`,
      )}
    </div>
    <figcaption>
      ${pageSummary(view)}
      ${failed ? html`<br /><a href=${url ?? undefined}>The picture did not load: open it to see why</a>` : null}
    </figcaption>
  </figure>`;
}
