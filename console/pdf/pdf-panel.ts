// PDFs: drop one, see what analyze found and what each profile would make of it, then compress
// with a chosen profile and compare the sizes. analyze is free; the button says what compress costs.
import { useState } from "preact/hooks";
import { pdfCompressPrice } from "../../contracts/pricing.ts";
import type { ApiClient } from "../api/api-client.ts";
import { asProblem, type ApiProblem } from "../api/api-problem.ts";
import { allOf, type PdfAnalysis, type PdfCompressOptions, type PdfCompressResult } from "../api/types.ts";
import { html } from "../html.ts";
import { needsUpload, sourceOf, type Source } from "../api/large-source.ts";
import { base64AsObjectUrl } from "../images/file-bytes.ts";
import { Busy } from "../ui/busy.ts";
import { formatBytes, formatCost, formatSizeChange } from "../ui/format.ts";
import { ProblemView } from "../ui/problem-view.ts";
import { compressPdf } from "./compress-pdf.ts";
import { PdfReport } from "./pdf-report.ts";
import { ProfileChart } from "./profile-chart.ts";

type Profile = NonNullable<PdfCompressOptions["profile"]>;
const PROFILES = allOf<Profile>()(["auto", "screen", "email", "ebook", "print", "prepress", "custom"]);

/** `uploaded`: the share of a large file's presigned upload sent, before the call itself. */
type Step<T> = { state: "idle" } | { state: "running"; progress: number | null; uploaded?: number } | { state: "failed"; problem: ApiProblem } | { state: "done"; value: T };

interface Dropped {
  file: File;
  /** Inline bytes, or the uploaded file; null once a compress has used an upload up (it deletes its source). */
  source: Source | null;
}

export function PdfPanel({ api, hidden }: { api: ApiClient; hidden: boolean }) {
  const [dropped, setDropped] = useState<Dropped | null>(null);
  const [analysis, setAnalysis] = useState<Step<PdfAnalysis>>({ state: "idle" });
  const [profile, setProfile] = useState<Profile>("ebook");
  const [compressed, setCompressed] = useState<Step<{ result: PdfCompressResult; url: string }>>({ state: "idle" });

  const open = async (file: File | undefined) => {
    if (file === undefined) return;
    setCompressed({ state: "idle" });
    setDropped({ file, source: null });
    setAnalysis({ state: "running", progress: null, uploaded: needsUpload(file) ? 0 : undefined });
    try {
      const source = await sourceOf(api, file, (sent, total) => setAnalysis({ state: "running", progress: null, uploaded: sent / total }));
      setDropped({ file, source });
      setAnalysis({ state: "running", progress: null });
      setAnalysis({ state: "done", value: await api.post<PdfAnalysis>("/v1/pdf/analyze", { source }) });
    } catch (error) {
      setAnalysis({ state: "failed", problem: asProblem(error) });
    }
  };
  const compress = async () => {
    if (dropped === null) return;
    const { file } = dropped;
    setCompressed({ state: "running", progress: null, uploaded: dropped.source === null ? 0 : undefined });
    try {
      const source = dropped.source ?? (await sourceOf(api, file, (sent, total) => setCompressed({ state: "running", progress: null, uploaded: sent / total })));
      // compress deletes an uploaded source when it is done, so the next compress uploads again.
      setDropped({ file, source: "file_id" in source ? null : source });
      setCompressed({ state: "running", progress: null });
      const result = await compressPdf(api, source, { profile }, (progress) => setCompressed({ state: "running", progress }));
      setCompressed({ state: "done", value: { result, url: result.base64 === undefined ? result.url! : base64AsObjectUrl(result.base64, "application/pdf") } });
    } catch (error) {
      setCompressed({ state: "failed", problem: asProblem(error) });
    }
  };
  const ceiling = dropped === null ? 0 : pdfCompressPrice({ inputBytes: dropped.file.size, madeSmaller: true, verifyQuality: false });

  return html`<section class="panel" hidden=${hidden} aria-labelledby="pdf-heading">
    <h2 id="pdf-heading">PDFs</h2>
    <div
      class="drop-zone"
      onDragOver=${(event: DragEvent) => event.preventDefault()}
      onDrop=${(event: DragEvent) => {
        event.preventDefault();
        void open(event.dataTransfer?.files[0]);
      }}
    >
      <label for="pdf-file">Drop a PDF here, or choose one (analysis is free; large files are uploaded first)</label>
      <input id="pdf-file" type="file" accept="application/pdf,.pdf" onChange=${(event: Event) => {
        const input = event.currentTarget as HTMLInputElement;
        void open(input.files?.[0]);
        input.value = "";
      }} />
    </div>
    ${analysis.state === "running"
      ? analysis.uploaded === undefined
        ? html`<${Busy} label=${`Analyzing ${dropped?.file.name ?? "the PDF"}`} />`
        : html`<${Busy} label=${`Uploading ${dropped?.file.name ?? "the PDF"}, ${Math.round(analysis.uploaded * 100)}% of ${formatBytes(dropped?.file.size ?? 0)}`} share=${analysis.uploaded} />`
      : null}
    ${analysis.state === "failed" ? html`<${ProblemView} problem=${analysis.problem} />` : null}
    ${analysis.state === "done" && dropped !== null
      ? html`<article class="pdf-item" aria-labelledby="pdf-name">
          <h3 id="pdf-name">${dropped.file.name}</h3>
          <${PdfReport} analysis=${analysis.value} />
          <${ProfileChart} analysis=${analysis.value} />
          <div class="compress-controls">
            <div class="field">
              <label for="pdf-profile">Profile</label>
              <select id="pdf-profile" value=${profile} onChange=${(event: Event) => setProfile((event.currentTarget as HTMLSelectElement).value as Profile)}>
                ${PROFILES.map((name) => html`<option value=${name}>${name}</option>`)}
              </select>
            </div>
            <button type="button" disabled=${compressed.state === "running"} onClick=${() => void compress()}>
              Compress (${formatCost(ceiling)} if it gets smaller, else $0)
            </button>
          </div>
          ${compressed.state === "running"
            ? compressed.uploaded !== undefined
              ? html`<${Busy} label=${`Uploading ${dropped.file.name}, ${Math.round(compressed.uploaded * 100)}%`} share=${compressed.uploaded} />`
              : html`<${Busy} label=${compressed.progress === null ? `Compressing ${dropped.file.name}` : `Compressing ${dropped.file.name}, ${Math.round(compressed.progress * 100)}%`} share=${compressed.progress} />`
            : null}
          ${compressed.state === "failed" ? html`<${ProblemView} problem=${compressed.problem} />` : null}
          ${compressed.state === "done" ? html`<${CompressedFacts} name=${dropped.file.name} result=${compressed.value.result} url=${compressed.value.url} />` : null}
        </article>`
      : null}
  </section>`;
}

function CompressedFacts({ name, result, url }: { name: string; result: PdfCompressResult; url: string }) {
  const { stats } = result;
  const downloadName = name.replace(/(\.pdf)?$/i, `.${stats.profile}.pdf`);
  return html`<dl class="facts compressed">
      <div><dt>Before</dt><dd>${formatBytes(stats.original_bytes)}</dd></div>
      <div><dt>After (${stats.profile})</dt><dd class="pdf-after">${formatBytes(stats.output_bytes)}</dd></div>
      <div><dt>Change</dt><dd>${formatSizeChange(stats.ratio)}</dd></div>
      <div><dt>Images</dt><dd>${stats.images_rewritten} rewritten, ${stats.images_kept} kept</dd></div>
      <div><dt>Cost</dt><dd>${formatCost(result.billing.charged_micros)}</dd></div>
      <div><dt>Download</dt><dd><a href=${url} download=${downloadName}>${downloadName}</a></dd></div>
    </dl>
    ${result.returned_original ? html`<p class="note">The original came back unchanged, at $0.</p>` : null}
    ${result.warnings.length === 0
      ? null
      : html`<ul class="warnings">${result.warnings.map((warning) => html`<li><code>${warning.code}</code>: ${warning.detail}</li>`)}</ul>`}`;
}
