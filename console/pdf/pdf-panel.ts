// PDFs: drop one, see what analyze found (its pages as pictures with every image's box coloured by
// its DPI) and what each profile would make of it, then compress with a chosen profile and compare
// the sizes and the pages. analyze is free; the button says what compress costs. The PDF is stored
// (expiring) so the service can draw its pages; compress works on a copy, which it deletes.
import { useEffect, useState } from "preact/hooks";
import { pdfCompressPrice } from "../../contracts/pricing.ts";
import type { ApiClient } from "../api/api-client.ts";
import { asProblem, type ApiProblem } from "../api/api-problem.ts";
import { allOf, type PdfAnalysis, type PdfCompressOptions, type PdfCompressResult } from "../api/types.ts";
import { html } from "../html.ts";
import { copyFile, storeFile } from "../api/store-file.ts";
import type { StoredFile } from "../api/upload-file.ts";
import type { TransformAccess } from "../urls/transform-access.ts";
import { Busy } from "../ui/busy.ts";
import { formatCost, formatSizeChange } from "../ui/format.ts";
import { formatByteSize } from "../../contracts/byte-size.ts";
import { compressedPdfName } from "../../contracts/derived-file-name.ts";
import { ProblemView } from "../ui/problem-view.ts";
import { compressPdf } from "./compress-pdf.ts";
import { PageCompare } from "./page-compare.ts";
import { PagePicturesView } from "./page-pictures-view.ts";
import { PdfReport } from "./pdf-report.ts";
import { ProfileChart } from "./profile-chart.ts";

type Profile = NonNullable<PdfCompressOptions["profile"]>;
const PROFILES = allOf<Profile>()(["auto", "screen", "email", "ebook", "print", "prepress", "custom"]);

/** `uploaded`: the share of a large file's presigned upload sent, before the call itself. */
type Step<T> = { state: "idle" } | { state: "running"; progress: number | null; uploaded?: number } | { state: "failed"; problem: ApiProblem } | { state: "done"; value: T };

interface Dropped {
  file: File;
  /** The PDF as stored in the account, once it is: analyze reads it and the page pictures draw it. */
  stored: StoredFile | null;
}

/** `handedOn`: a PDF dropped on another section, opened here as if dropped here. */
export function PdfPanel({ api, access, hidden, handedOn }: { api: ApiClient; access: TransformAccess; hidden: boolean; handedOn: File | null }) {
  const [dropped, setDropped] = useState<Dropped | null>(null);
  const [analysis, setAnalysis] = useState<Step<PdfAnalysis>>({ state: "idle" });
  const [profile, setProfile] = useState<Profile>("ebook");
  const [compressed, setCompressed] = useState<Step<PdfCompressResult>>({ state: "idle" });

  const open = async (file: File | undefined) => {
    if (file === undefined) return;
    setCompressed({ state: "idle" });
    setDropped({ file, stored: null });
    setAnalysis({ state: "running", progress: null, uploaded: 0 });
    try {
      const stored = await storeFile(api, file, (sent, total) => setAnalysis({ state: "running", progress: null, uploaded: sent / total }));
      setDropped({ file, stored });
      setAnalysis({ state: "running", progress: null });
      setAnalysis({ state: "done", value: await api.post<PdfAnalysis>("/v1/pdf/analyze", { source: { file_id: stored.file_id } }) });
    } catch (error) {
      setAnalysis({ state: "failed", problem: asProblem(error) });
    }
  };
  useEffect(() => {
    if (handedOn !== null) void open(handedOn);
  }, [handedOn]);
  const compress = async () => {
    if (dropped?.stored == null) return;
    const { stored } = dropped;
    setCompressed({ state: "running", progress: null });
    try {
      // compress deletes an expiring source when it is done: it gets a copy, the original stays for its pictures.
      const copy = await copyFile(api, stored.file_id);
      const result = await compressPdf(api, { file_id: copy.file_id }, { profile }, (progress) => setCompressed({ state: "running", progress }));
      setCompressed({ state: "done", value: result });
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
      <label for="pdf-file">Drop a PDF here, or choose one (analysis is free; the PDF is stored in the account until its retention ends, so the service can draw its pages)</label>
      <input id="pdf-file" type="file" accept="application/pdf,.pdf" onChange=${(event: Event) => {
        const input = event.currentTarget as HTMLInputElement;
        void open(input.files?.[0]);
        input.value = "";
      }} />
    </div>
    ${analysis.state === "running"
      ? analysis.uploaded === undefined
        ? html`<${Busy} label=${`Analyzing ${dropped?.file.name ?? "the PDF"}`} />`
        : html`<${Busy} label=${`Uploading ${dropped?.file.name ?? "the PDF"}, ${Math.round(analysis.uploaded * 100)}% of ${formatByteSize(dropped?.file.size ?? 0)}`} share=${analysis.uploaded} />`
      : null}
    ${analysis.state === "failed" ? html`<${ProblemView} problem=${analysis.problem} />` : null}
    ${analysis.state === "done" && dropped?.stored != null
      ? html`<article class="pdf-item" aria-labelledby="pdf-name">
          <h3 id="pdf-name">${dropped.file.name}</h3>
          <${PdfReport} analysis=${analysis.value} />
          <${PagePicturesView} key=${dropped.stored.file_id} api=${api} access=${access} fileId=${dropped.stored.file_id} analysis=${analysis.value} />
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
            ? html`<${Busy} label=${compressed.progress === null ? `Compressing ${dropped.file.name}` : `Compressing ${dropped.file.name}, ${Math.round(compressed.progress * 100)}%`} share=${compressed.progress} />`
            : null}
          ${compressed.state === "failed" ? html`<${ProblemView} problem=${compressed.problem} />` : null}
          ${compressed.state === "done" ? html`<${CompressedFacts} name=${dropped.file.name} result=${compressed.value} />` : null}
          ${compressed.state === "done" && compressed.value.file_id !== null
            ? html`<${PageCompare} key=${compressed.value.file_id} api=${api} access=${access} analysis=${analysis.value} beforeFileId=${dropped.stored.file_id} afterFileId=${compressed.value.file_id} />`
            : null}
        </article>`
      : null}
  </section>`;
}

function CompressedFacts({ name, result }: { name: string; result: PdfCompressResult }) {
  const { stats } = result;
  const downloadName = compressedPdfName(name);
  return html`<dl class="facts compressed">
      <div><dt>Before</dt><dd>${formatByteSize(stats.original_bytes)}</dd></div>
      <div><dt>After (${stats.profile})</dt><dd class="pdf-after">${formatByteSize(stats.output_bytes)}</dd></div>
      <div><dt>Change</dt><dd>${formatSizeChange(stats.ratio)}</dd></div>
      <div><dt>Images</dt><dd>${stats.images_rewritten} rewritten, ${stats.images_kept} kept</dd></div>
      <div><dt>Cost</dt><dd>${formatCost(result.billing.charged_micros)}</dd></div>
      <div><dt>Download</dt><dd><a href=${result.url ?? undefined} download=${downloadName}>${downloadName}</a></dd></div>
    </dl>
    ${result.returned_original ? html`<p class="note">The original came back unchanged, at $0.</p>` : null}
    ${result.warnings.length === 0
      ? null
      : html`<ul class="warnings">${result.warnings.map((warning) => html`<li><code>${warning.code}</code>: ${warning.detail}</li>`)}</ul>`}`;
}
