// One dropped file: its original as the browser shows it (or a lossless preview from the service
// when the browser cannot decode it), the call under way, and the result beside the original.
import { html } from "../html.ts";
import type { ApiProblem } from "../api/api-problem.ts";
import { Busy } from "../ui/busy.ts";
import { formatCost, formatSizeChange } from "../ui/format.ts";
import { formatByteSize } from "../../contracts/byte-size.ts";
import { ProblemView } from "../ui/problem-view.ts";
import { CompareSlider } from "./compare-slider.ts";
import type { OptimizedImage } from "./optimize-file.ts";

/** `uploaded`: the share of the file's presigned upload sent, while a large file goes up first. */
export type CallState<T> = { state: "running"; uploaded?: number } | { state: "failed"; problem: ApiProblem } | ({ state: "done" } & T);

export interface ImageItemState {
  id: string;
  file: File;
  /** undefined while the browser tries to decode the file; null when it cannot. */
  originalUrl: string | null | undefined;
  preview?: CallState<{ url: string; chargedMicros: number }>;
  optimized: CallState<OptimizedImage>;
}

export function ImageItem({ item, previewPrice, onPreview }: { item: ImageItemState; previewPrice: number; onPreview: () => void }) {
  const name = item.file.name;
  const beforeUrl = item.originalUrl ?? (item.preview?.state === "done" ? item.preview.url : null);
  return html`<article class="image-item" aria-labelledby=${`${item.id}-name`}>
    <h3 id=${`${item.id}-name`}>${name}</h3>
    ${item.originalUrl === null ? html`<${PreviewOffer} item=${item} price=${previewPrice} onPreview=${onPreview} />` : null}
    ${item.optimized.state === "running"
      ? item.optimized.uploaded === undefined
        ? html`<${Busy} label=${`Optimizing ${name}`} />`
        : html`<${Busy} label=${`Uploading ${name}, ${Math.round(item.optimized.uploaded * 100)}% of ${formatByteSize(item.file.size)}`} share=${item.optimized.uploaded} />`
      : null}
    ${item.optimized.state === "failed" ? html`<${ProblemView} problem=${item.optimized.problem} />` : null}
    ${item.optimized.state === "done"
      ? html`
          ${beforeUrl === null || beforeUrl === undefined
            ? html`<img class="result-alone" id=${`${item.id}-result`} src=${item.optimized.url} alt=${`Result of ${name}`} />`
            : html`<${CompareSlider} id=${item.id} name=${name} beforeUrl=${beforeUrl} afterUrl=${item.optimized.url} width=${item.optimized.result.width} height=${item.optimized.result.height} />`}
          <${ResultFacts} optimized=${item.optimized} />
        `
      : null}
  </article>`;
}

function PreviewOffer({ item, price, onPreview }: { item: ImageItemState; price: number; onPreview: () => void }) {
  const preview = item.preview;
  if (preview?.state === "done") return html`<p class="note">Original shown through a lossless PNG preview from the service (charged ${formatCost(preview.chargedMicros)}).</p>`;
  return html`<div class="note">
    <p>This browser cannot show the original. The service can render it as a lossless PNG: an optimize call that costs ${formatCost(price)} when the PNG is smaller than the original, and $0 otherwise.</p>
    ${preview?.state === "running"
      ? html`<${Busy} label=${preview.uploaded === undefined ? `Rendering a preview of ${item.file.name}` : `Uploading ${item.file.name}, ${Math.round(preview.uploaded * 100)}%`} share=${preview.uploaded} />`
      : html`<button type="button" onClick=${onPreview}>Show a lossless preview (at most ${formatCost(price)})</button>`}
    ${preview?.state === "failed" ? html`<${ProblemView} problem=${preview.problem} />` : null}
  </div>`;
}

function ResultFacts({ optimized }: { optimized: OptimizedImage }) {
  const { result, url, downloadName } = optimized;
  const stats = result.stats;
  return html`<dl class="facts">
    <div><dt>Original</dt><dd>${formatByteSize(stats.original_bytes)} · ${stats.original_width} × ${stats.original_height} · ${stats.original_format}</dd></div>
    <div><dt>Result</dt><dd class="result-bytes">${formatByteSize(stats.output_bytes)} · ${result.width} × ${result.height} · ${result.format}</dd></div>
    <div><dt>Change</dt><dd>${formatSizeChange(stats.ratio)} (ratio ${stats.ratio.toFixed(3)})</dd></div>
    <div><dt>Quality</dt><dd>${stats.lossless ? "lossless" : stats.quality}${stats.quality_level === null ? "" : ` (auto:${stats.quality_level})`}</dd></div>
    ${stats.score === null ? null : html`<div><dt>Perceptual score</dt><dd>${stats.score.toFixed(1)} SSIMULACRA 2</dd></div>`}
    <div><dt>Cost</dt><dd>${formatCost(result.billing.charged_micros)}</dd></div>
    <div><dt>Download</dt><dd><a href=${url} download=${downloadName}>${downloadName}</a></dd></div>
  </dl>`;
}
