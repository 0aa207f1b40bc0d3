import { html } from "../html.ts";
import { AUTO_QUALITIES, FITS, FORMATS, type ImageChoices } from "./image-choices.ts";

const FORMAT_LABELS: Record<(typeof FORMATS)[number], string> = {
  source: "Same as the original",
  auto: "Smallest of the candidates (auto)",
  jpeg: "JPEG",
  webp: "WebP",
  avif: "AVIF",
  png: "PNG (lossless)",
};

export function ImageChoicesForm({ choices, onChange }: { choices: ImageChoices; onChange: (choices: ImageChoices) => void }) {
  const set =
    <K extends keyof ImageChoices>(name: K) =>
    (event: Event) =>
      onChange({ ...choices, [name]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value as ImageChoices[K] });
  return html`<fieldset class="choices">
    <legend>Options</legend>
    <div class="field">
      <label for="choice-width">Width (px)</label>
      <input id="choice-width" type="number" min="1" max="16384" inputmode="numeric" placeholder="original" value=${choices.width} onInput=${set("width")} /></div>
    <div class="field">
      <label for="choice-fit">Fit</label>
      <select id="choice-fit" value=${choices.fit} onChange=${set("fit")}>${FITS.map((fit) => html`<option value=${fit}>${fit}</option>`)}</select></div>
    <div class="field">
      <label for="choice-format">Format</label>
      <select id="choice-format" value=${choices.format} onChange=${set("format")}>
        ${FORMATS.map((format) => html`<option value=${format}>${FORMAT_LABELS[format]}</option>`)}
      </select></div>
    <div class="field">
      <label for="choice-quality">Quality</label>
      <select id="choice-quality" value=${choices.quality} onChange=${set("quality")}>
        <option value="fixed">Fixed number</option>
        ${AUTO_QUALITIES.map((level) => html`<option value=${level}>Perceptual: ${level}</option>`)}
      </select></div>
    <div class="field">
      <label for="choice-fixed-quality">Fixed quality (1–100)</label>
      <input id="choice-fixed-quality" type="number" min="1" max="100" inputmode="numeric" disabled=${choices.quality !== "fixed"} value=${choices.fixedQuality} onInput=${set("fixedQuality")} /></div>
    <div class="field">
      <label for="choice-max-bytes">Max bytes</label>
      <input id="choice-max-bytes" type="number" min="1" inputmode="numeric" placeholder="no limit" value=${choices.maxBytes} onInput=${set("maxBytes")} /></div>
    <div class="field">
      <label for="choice-result-as">Result as</label>
      <select id="choice-result-as" value=${choices.delivery} onChange=${set("delivery")}>
        <option value="base64">Inline bytes (base64)</option>
        <option value="url">Signed download URL</option>
      </select></div>
  </fieldset>`;
}
