// URLs for pages: a stored file, transform tokens set with controls, the transform URL as it
// changes, its picture, and the <img srcset> and <picture> snippets that ask for it. The URLs and
// attributes come from the typed client's planners and writers (clients/ts/images), which refuse
// what the edge refuses. Signed URLs (for accounts that require them) are signed by the service
// (POST /v1/image/sign): the console never holds a signing secret. This section is its own chunk,
// loaded when first opened: the planners bring the transform grammar and its zod schemas with them.
import { useEffect, useState } from "preact/hooks";
import { PixelPressError } from "../../clients/ts/api-error.ts";
import { canonicalsOf, planImg, planPicture, writeImg, writePicture, type ImgPlan, type PicturePlan } from "../../clients/ts/images/img-attributes.ts";
import { canonicalOf, specOf } from "../../clients/ts/images/transform-tokens.ts";
import { unsignedWriter, type UrlWriter } from "../../clients/ts/images/transform-url.ts";
import { prices } from "../../contracts/pricing.ts";
import type { ApiClient } from "../api/api-client.ts";
import { ApiProblem, asProblem } from "../api/api-problem.ts";
import { uploadFile } from "../api/upload-file.ts";
import { html } from "../html.ts";
import { Busy } from "../ui/busy.ts";
import { formatCost } from "../ui/format.ts";
import { ProblemView } from "../ui/problem-view.ts";
import { signedUrls } from "./sign-urls.ts";
import { imgSnippet, pictureSnippet } from "./snippets.ts";
import type { TransformAccess } from "./transform-access.ts";
import { DEFAULT_URL_CHOICES, URL_AUTO_QUALITIES, URL_FACE_EFFECTS, URL_FITS, URL_FORMATS, URL_GRAVITIES, URL_TEXT_FONTS, URL_TEXT_PLACES, urlOptions, type UrlChoices } from "./url-choices.ts";

/** How long the controls rest before their URLs are signed: one call per pause in typing, not per key. */
const SIGN_DELAY_MS = 300;

interface Planned {
  fileId: string;
  url: string;
  img: ImgPlan;
  picture: PicturePlan;
}

interface Built {
  url: string;
  img: string;
  picture: string;
}

type Signing = { state: "running" } | { state: "failed"; problem: ApiProblem } | { state: "done"; writer: UrlWriter; planned: Planned };

function asApiProblem(error: unknown): ApiProblem {
  if (error instanceof PixelPressError) return new ApiProblem(error.problem.status, error.problem.title, error.problem.detail, error.problem.errors ?? []);
  return asProblem(error);
}

function plan(choices: UrlChoices): Planned | ApiProblem {
  try {
    const { widths, ...transform } = urlOptions(choices);
    const fileId = choices.fileId.trim();
    return { fileId, url: canonicalOf(specOf(transform)), img: planImg(fileId, { ...transform, widths }), picture: planPicture(fileId, { ...transform, widths }) };
  } catch (error) {
    return asApiProblem(error);
  }
}

function write(planned: Planned, writer: UrlWriter): Built {
  return {
    url: writer(planned.fileId, planned.url),
    img: imgSnippet(writeImg(planned.img, writer), ""),
    picture: pictureSnippet(writePicture(planned.picture, writer), ""),
  };
}

export function UrlsPanel({
  api,
  access,
  onAccessChange,
  pickedFileId,
  hidden,
}: {
  api: ApiClient;
  access: TransformAccess;
  onAccessChange: (access: TransformAccess) => void;
  pickedFileId: string | null;
  hidden: boolean;
}) {
  const [choices, setChoices] = useState<UrlChoices>(DEFAULT_URL_CHOICES);
  const [live, setLive] = useState(false);
  const [upload, setUpload] = useState<{ state: "running"; share: number } | { state: "failed"; problem: ApiProblem } | null>(null);
  const [copied, setCopied] = useState("");
  const [signing, setSigning] = useState<Signing | null>(null);

  useEffect(() => {
    if (pickedFileId !== null) setChoices((current) => ({ ...current, fileId: pickedFileId }));
  }, [pickedFileId]);

  const keyId = access.keyId.trim();
  const ready = keyId !== "" && choices.fileId.trim() !== "";
  const planned = ready ? plan(choices) : null;
  const plannedKey = planned === null || planned instanceof ApiProblem ? null : JSON.stringify([keyId, planned.fileId, planned.url, canonicalsOf(planned.img), canonicalsOf(planned.picture)]);

  useEffect(() => {
    if (!access.signed || plannedKey === null || planned === null || planned instanceof ApiProblem) return setSigning(null);
    setSigning({ state: "running" });
    let current = true;
    const timer = setTimeout(() => {
      signedUrls(api, keyId, planned.fileId, [planned.url, ...canonicalsOf(planned.img), ...canonicalsOf(planned.picture)]).then(
        (urls) => current && setSigning({ state: "done", planned, writer: (_src, canonical) => urls.get(canonical)! }),
        (error) => current && setSigning({ state: "failed", problem: asProblem(error) }),
      );
    }, SIGN_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, access.signed, plannedKey]);

  let built: Built | null = null;
  if (planned !== null && !(planned instanceof ApiProblem)) {
    if (!access.signed) built = write(planned, unsignedWriter({ baseUrl: location.origin, keyId }));
    else if (signing?.state === "done") built = write(signing.planned, signing.writer);
  }

  const set = (name: keyof UrlChoices) => (event: Event) => setChoices({ ...choices, [name]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  const chooseFile = async (file: File | undefined) => {
    if (file === undefined) return;
    setUpload({ state: "running", share: 0 });
    try {
      const stored = await uploadFile(api, file, (sent, total) => setUpload({ state: "running", share: sent / total }));
      setChoices((current) => ({ ...current, fileId: stored.file_id }));
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

  return html`<section class="panel" hidden=${hidden} aria-labelledby="urls-heading">
    <h2 id="urls-heading">URLs for pages</h2>
    <fieldset class="choices">
      <legend>Image and tokens</legend>
      <div class="field"><label for="url-key-id">Key id</label><input id="url-key-id" type="text" value=${access.keyId} onInput=${(event: Event) => onAccessChange({ ...access, keyId: (event.currentTarget as HTMLInputElement).value })} /></div>
      <div class="field"><label for="url-file-id">File id</label><input id="url-file-id" type="text" placeholder="file_…" value=${choices.fileId} onInput=${set("fileId")} /></div>
      <div class="field"><label for="url-upload">Or upload an image</label><input id="url-upload" type="file" accept="image/*" onChange=${(event: Event) => void chooseFile((event.currentTarget as HTMLInputElement).files?.[0])} /></div>
      <div class="field"><label for="url-width">Width</label><input id="url-width" type="number" min="1" value=${choices.width} onInput=${set("width")} /></div>
      <div class="field"><label for="url-height">Height</label><input id="url-height" type="number" min="1" value=${choices.height} onInput=${set("height")} /></div>
      <div class="field"><label for="url-fit">Fit</label><select id="url-fit" value=${choices.fit} onChange=${set("fit")}>${URL_FITS.map((fit) => html`<option value=${fit}>${fit}</option>`)}</select></div>
      <div class="field"><label for="url-gravity">Gravity (cover)</label><select id="url-gravity" value=${choices.gravity} onChange=${set("gravity")}>${URL_GRAVITIES.map((gravity) => html`<option value=${gravity}>${gravity}</option>`)}</select></div>
      <div class="field"><label for="url-zoom">Zoom to faces</label><input id="url-zoom" type="text" inputmode="decimal" placeholder="1 to 10" value=${choices.zoom} onInput=${set("zoom")} /></div>
      <div class="field"><label for="url-effect">Faces</label><select id="url-effect" value=${choices.effect} onChange=${set("effect")}>
        <option value="">as they are</option>
        ${URL_FACE_EFFECTS.map((effect) => html`<option value=${effect}>${effect.replace("_", " ")}</option>`)}
      </select></div>
      <div class="field"><label for="url-format">Format</label><select id="url-format" value=${choices.format} onChange=${set("format")}>
        <option value="">the file's own</option>
        ${URL_FORMATS.map((format) => html`<option value=${format}>${format}</option>`)}
      </select></div>
      <div class="field"><label for="url-quality">Quality</label><input id="url-quality" type="text" list="url-quality-levels" placeholder="76" value=${choices.quality} onInput=${set("quality")} />
        <datalist id="url-quality-levels">${URL_AUTO_QUALITIES.map((level) => html`<option value=${level}></option>`)}</datalist></div>
      <div class="field"><label for="url-text">Text overlay</label><input id="url-text" type="text" placeholder="e.g. © Example Shop" value=${choices.text} onInput=${set("text")} /></div>
      <div class="field"><label for="url-text-font">Text font</label><select id="url-text-font" value=${choices.textFont} onChange=${set("textFont")}>${URL_TEXT_FONTS.map((font) => html`<option value=${font}>${font}</option>`)}</select></div>
      <div class="field"><label for="url-text-size">Text size</label><input id="url-text-size" type="number" min="6" value=${choices.textSize} onInput=${set("textSize")} /></div>
      <div class="field"><label for="url-text-colour">Text colour</label><input id="url-text-colour" type="color" value=${choices.textColour} onInput=${set("textColour")} /></div>
      <div class="field"><label for="url-text-place">Text place</label><select id="url-text-place" value=${choices.textPlace} onChange=${set("textPlace")}>${URL_TEXT_PLACES.map((place) => html`<option value=${place}>${place}</option>`)}</select></div>
      <div class="field"><label for="url-widths">srcset widths</label><input id="url-widths" type="text" placeholder="e.g. 400, 800, 1600" value=${choices.widths} disabled=${choices.hintedWidth} onInput=${set("widths")} /></div>
      <label class="check"><input id="url-hinted-width" type="checkbox" checked=${choices.hintedWidth} onChange=${() => setChoices((current) => ({ ...current, hintedWidth: !current.hintedWidth }))} /> Width from the browser's client hints (w_auto: one URL, snapped to a ladder rung; Width is the fallback)</label>
      <label class="check"><input id="url-signed" type="checkbox" checked=${access.signed} onChange=${() => onAccessChange({ ...access, signed: !access.signed })} /> Signed URLs (signed by the service; the secret never reaches this page)</label>
    </fieldset>
    ${upload?.state === "running" ? html`<${Busy} label=${`Uploading the image, ${Math.round(upload.share * 100)}%`} share=${upload.share} />` : null}
    ${upload?.state === "failed" ? html`<${ProblemView} problem=${upload.problem} />` : null}
    ${planned instanceof ApiProblem ? html`<${ProblemView} problem=${planned} />` : null}
    ${signing?.state === "running" ? html`<${Busy} label="Signing the URLs" />` : null}
    ${signing?.state === "failed" ? html`<${ProblemView} problem=${signing.problem} />` : null}
    ${built === null
      ? planned === null
        ? html`<p class="hint">Give a key id and a file id (or upload an image, or pick one under Files) to see its URLs.</p>`
        : null
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
