// What analyze found in a PDF: the document's facts and flags, and every image with the
// resolution it is drawn at.
import { html } from "../html.ts";
import type { PdfAnalysis } from "../api/types.ts";
import { formatByteSize } from "../../contracts/byte-size.ts";

function flagsOf(flags: PdfAnalysis["flags"]): string {
  const set = [
    flags.encrypted && `encrypted (${flags.encryption ?? "unknown"})`,
    flags.signed && "signed",
    ...flags.conformance.map((claim) => `${claim.standard} ${claim.part}${claim.conformance ?? ""}`),
    flags.forms.acroform && `form (${flags.forms.fields} fields)`,
    flags.forms.xfa && "XFA form",
    flags.javascript && "JavaScript",
    flags.embedded_files > 0 && `${flags.embedded_files} embedded files`,
    flags.tagged && "tagged",
    flags.linearized && "linearized",
  ].filter((flag): flag is string => typeof flag === "string");
  return set.length === 0 ? "none" : set.join(", ");
}

export function PdfReport({ analysis }: { analysis: PdfAnalysis }) {
  const { composition } = analysis;
  return html`<dl class="facts">
      <div><dt>Size</dt><dd>${formatByteSize(analysis.stats.original_bytes)}</dd></div>
      <div><dt>Pages</dt><dd>${composition.pages}</dd></div>
      <div><dt>Images</dt><dd>${formatByteSize(composition.bytes.images)} in ${analysis.images.length}</dd></div>
      <div><dt>Fonts</dt><dd>${formatByteSize(composition.bytes.fonts)} in ${analysis.fonts.length}</dd></div>
      <div><dt>Version · producer</dt><dd>PDF ${composition.version} · ${composition.producer ?? "unknown"}</dd></div>
      <div><dt>Flags</dt><dd>${flagsOf(analysis.flags)}</dd></div>
    </dl>
    ${analysis.images.length === 0
      ? null
      : html`<div class="table-scroll"><table class="pdf-images">
          <caption>Images, with the resolution each is drawn at</caption>
          <thead><tr><th scope="col">Object</th><th scope="col">Pages</th><th scope="col">Pixels</th><th scope="col">Placed DPI</th><th scope="col">Bytes</th><th scope="col">Encoding</th><th scope="col">JPEG quality</th></tr></thead>
          <tbody>
            ${analysis.images.map(
              (image) => html`<tr>
                <td>${image.object_number}</td>
                <td>${image.pages.join(", ")}</td>
                <td>${image.width} × ${image.height}</td>
                <td>${image.effective_dpi === null ? "not drawn" : Math.round(image.effective_dpi)}</td>
                <td>${formatByteSize(image.bytes)}</td>
                <td>${image.filters.join(" + ") || "raw"} · ${image.colorspace.family}</td>
                <td>${image.estimated_jpeg_quality ?? "—"}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>`}`;
}
