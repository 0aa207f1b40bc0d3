// URLs for pages: a stored file, transform tokens set with controls, the transform URL as it
// changes, its picture, and the <img srcset> and <picture> snippets that ask for it. The URLs and
// attributes come from the typed client's builders (clients/ts/images), which refuse what the
// edge refuses. This section is its own chunk, loaded when first opened: the builders bring the
// transform grammar and its zod schemas with them.
import { useEffect, useState } from "preact/hooks";
import { createImageUrls } from "../../clients/ts/images/image-urls.ts";
import { PixelPressError } from "../../clients/ts/api-error.ts";
import { prices } from "../../contracts/pricing.ts";
import type { ApiClient } from "../api/api-client.ts";
import { ApiProblem, asProblem } from "../api/api-problem.ts";
import type { ApiKey } from "../api/types.ts";
import { html } from "../html.ts";
import { Busy } from "../ui/busy.ts";
import { formatCost } from "../ui/format.ts";
import { ProblemView } from "../ui/problem-view.ts";
import { imgSnippet, pictureSnippet } from "./snippets.ts";
import { uploadImage } from "./upload-image.ts";
import { DEFAULT_URL_CHOICES, URL_AUTO_QUALITIES, URL_FITS, URL_FORMATS, urlOptions, type UrlChoices } from "./url-choices.ts";

interface Built {
  url: string;
  img: string;
  picture: string;
}

function build(keyId: string, choices: UrlChoices): Built | ApiProblem {
  try {
    const urls = createImageUrls({ baseUrl: location.origin, keyId });
    const { widths, ...transform } = urlOptions(choices);
    const fileId = choices.fileId.trim();
    return {
      url: urls.transformUrl(fileId, transform),
      img: imgSnippet(urls.imgAttributes(fileId, { ...transform, widths }), ""),
      picture: pictureSnippet(urls.picture(fileId, { ...transform, widths }), ""),
    };
  } catch (error) {
    if (error instanceof PixelPressError) return new ApiProblem(error.problem.status, error.problem.title, error.problem.detail, error.problem.errors ?? []);
    return asProblem(error);
  }
}

export function UrlsPanel({ api, apiKey, hidden }: { api: ApiClient; apiKey: string; hidden: boolean }) {
  const [keyId, setKeyId] = useState("");
  const [choices, setChoices] = useState<UrlChoices>(DEFAULT_URL_CHOICES);
  const [live, setLive] = useState(false);
  const [upload, setUpload] = useState<{ state: "running" } | { state: "failed"; problem: ApiProblem } | null>(null);
  const [copied, setCopied] = useState("");

  useEffect(() => {
    // The transform path names a key by its public id; this key's id is the one whose prefix it shows.
    api.get<{ data: ApiKey[] }>("/v1/keys").then(
      ({ data }) => setKeyId(data.find((key) => key.revoked_at === null && apiKey.startsWith(key.display_prefix))?.key_id ?? ""),
      () => undefined,
    );
  }, [api, apiKey]);

  const set = (name: keyof UrlChoices) => (event: Event) => setChoices({ ...choices, [name]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  const chooseFile = async (file: File | undefined) => {
    if (file === undefined) return;
    setUpload({ state: "running" });
    try {
      const fileId = await uploadImage(api, file);
      setChoices((current) => ({ ...current, fileId }));
      setUpload(null);
    } catch (error) {
      setUpload({ state: "failed", problem: asProblem(error) });
    }
  };
  const copy = (name: string, text: string) =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(`${name} copied`),
      () => setCopied(`Could not copy: select the text and copy it`),
    );
  const ready = keyId.trim() !== "" && choices.fileId.trim() !== "";
  const built = ready ? build(keyId.trim(), choices) : null;

  return html`<section class="panel" hidden=${hidden} aria-labelledby="urls-heading">
    <h2 id="urls-heading">URLs for pages</h2>
    <fieldset class="choices">
      <legend>Image and tokens</legend>
      <div class="field"><label for="url-key-id">Key id</label><input id="url-key-id" type="text" value=${keyId} onInput=${(event: Event) => setKeyId((event.currentTarget as HTMLInputElement).value)} /></div>
      <div class="field"><label for="url-file-id">File id</label><input id="url-file-id" type="text" placeholder="file_…" value=${choices.fileId} onInput=${set("fileId")} /></div>
      <div class="field"><label for="url-upload">Or upload an image</label><input id="url-upload" type="file" accept="image/*" onChange=${(event: Event) => void chooseFile((event.currentTarget as HTMLInputElement).files?.[0])} /></div>
      <div class="field"><label for="url-width">Width</label><input id="url-width" type="number" min="1" value=${choices.width} onInput=${set("width")} /></div>
      <div class="field"><label for="url-height">Height</label><input id="url-height" type="number" min="1" value=${choices.height} onInput=${set("height")} /></div>
      <div class="field"><label for="url-fit">Fit</label><select id="url-fit" value=${choices.fit} onChange=${set("fit")}>${URL_FITS.map((fit) => html`<option value=${fit}>${fit}</option>`)}</select></div>
      <div class="field"><label for="url-format">Format</label><select id="url-format" value=${choices.format} onChange=${set("format")}>
        <option value="">the file's own</option>
        ${URL_FORMATS.map((format) => html`<option value=${format}>${format}</option>`)}
      </select></div>
      <div class="field"><label for="url-quality">Quality</label><input id="url-quality" type="text" list="url-quality-levels" placeholder="76" value=${choices.quality} onInput=${set("quality")} />
        <datalist id="url-quality-levels">${URL_AUTO_QUALITIES.map((level) => html`<option value=${level}></option>`)}</datalist></div>
      <div class="field"><label for="url-widths">srcset widths</label><input id="url-widths" type="text" placeholder="e.g. 400, 800, 1600" value=${choices.widths} onInput=${set("widths")} /></div>
    </fieldset>
    ${upload?.state === "running" ? html`<${Busy} label="Uploading the image" />` : null}
    ${upload?.state === "failed" ? html`<${ProblemView} problem=${upload.problem} />` : null}
    ${built instanceof ApiProblem ? html`<${ProblemView} problem=${built} />` : null}
    ${built === null || built instanceof ApiProblem
      ? html`<p class="hint">Give a key id and a file id (or upload an image) to see its URLs.</p>`
      : html`
          <div class="field"><label for="url-output">Transform URL</label><input id="url-output" class="url-output" type="text" readonly value=${built.url} /></div>
          <label class="check"><input type="checkbox" checked=${live} onChange=${() => setLive(!live)} /> Show the picture (each transform computed for the first time costs ${formatCost(prices.transform)}; cached ones are free)</label>
          ${live ? html`<figure class="url-preview"><img id="url-preview" src=${built.url} alt="The transform URL's picture" /></figure>` : null}
          <div class="field"><label for="url-img">${"<img srcset>"}</label><textarea id="url-img" readonly rows="4">${built.img}</textarea></div>
          <button type="button" onClick=${() => copy("<img>", built.img)}>Copy ${"<img>"}</button>
          <div class="field"><label for="url-picture">${"<picture>"}</label><textarea id="url-picture" readonly rows="7">${built.picture}</textarea></div>
          <button type="button" onClick=${() => copy("<picture>", built.picture)}>Copy ${"<picture>"}</button>
          <p role="status" class="hint">${copied}</p>
        `}
  </section>`;
}
