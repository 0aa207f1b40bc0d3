// Images: drop one or more files, set the options, and each result appears beside its original.
// Calls run one after another, so a large drop does not trip the account's rate limit. A file past
// the inline limit (25 MB) goes up through a presigned upload first, its progress shown.
import { useRef, useState } from "preact/hooks";
import { prices } from "../../contracts/pricing.ts";
import type { ApiClient } from "../api/api-client.ts";
import { asProblem } from "../api/api-problem.ts";
import type { ImageResult } from "../api/types.ts";
import { html } from "../html.ts";
import { sourceOf } from "../api/large-source.ts";
import { base64AsObjectUrl, decodableUrl } from "./file-bytes.ts";
import { DEFAULT_CHOICES, imageRequestOptions, type ImageChoices } from "./image-choices.ts";
import { ImageChoicesForm } from "./image-choices-form.ts";
import { ImageItem, type ImageItemState } from "./image-item.ts";
import { optimizeFile } from "./optimize-file.ts";
import { splitPdfs } from "./pdf-files.ts";

const ACCEPTED = "image/jpeg,image/png,image/webp,image/gif,image/tiff,image/avif,.tif,.tiff";

/** `onPdf`: a dropped PDF goes to the PDFs section, which shows it. */
export function ImagesPanel({ api, hidden, onPdf }: { api: ApiClient; hidden: boolean; onPdf: (file: File) => void }) {
  const [choices, setChoices] = useState<ImageChoices>(DEFAULT_CHOICES);
  const [items, setItems] = useState<ImageItemState[]>([]);
  const [dragging, setDragging] = useState(false);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const counter = useRef(0);

  const update = (id: string, patch: Partial<ImageItemState>) => setItems((all) => all.map((item) => (item.id === id ? { ...item, ...patch } : item)));
  const enqueue = (work: () => Promise<void>) => {
    queue.current = queue.current.then(work);
  };
  const optimize = (item: Pick<ImageItemState, "id" | "file">, current: ImageChoices) => {
    update(item.id, { optimized: { state: "running" } });
    enqueue(async () => {
      try {
        const onUpload = (sent: number, total: number) => update(item.id, { optimized: { state: "running", uploaded: sent / total } });
        update(item.id, { optimized: { state: "done", ...(await optimizeFile(api, item.file, imageRequestOptions(current), onUpload)) } });
      } catch (error) {
        update(item.id, { optimized: { state: "failed", problem: asProblem(error) } });
      }
    });
  };
  const add = (files: FileList | null) => {
    const { images, pdfs } = splitPdfs(Array.from(files ?? []));
    if (pdfs[0] !== undefined) onPdf(pdfs[0]);
    for (const file of images) {
      const item: ImageItemState = { id: `image-${++counter.current}`, file, originalUrl: undefined, optimized: { state: "running" } };
      setItems((all) => [item, ...all]);
      void decodableUrl(file).then((originalUrl) => update(item.id, { originalUrl }));
      optimize(item, choices);
    }
  };
  const preview = (item: ImageItemState) => {
    update(item.id, { preview: { state: "running" } });
    enqueue(async () => {
      try {
        const source = await sourceOf(api, item.file, (sent, total) => update(item.id, { preview: { state: "running", uploaded: sent / total } }));
        const result = await api.post<ImageResult>("/v1/image/optimize", { source, options: { format: "png", output: "base64" } });
        update(item.id, { preview: { state: "done", url: base64AsObjectUrl(result.base64!, "image/png"), chargedMicros: result.billing.charged_micros } });
      } catch (error) {
        update(item.id, { preview: { state: "failed", problem: asProblem(error) } });
      }
    });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer?.files ?? null);
  };

  return html`<section class="panel" hidden=${hidden} aria-labelledby="images-heading">
    <h2 id="images-heading">Images</h2>
    <${ImageChoicesForm} choices=${choices} onChange=${setChoices} />
    <div
      class=${`drop-zone${dragging ? " dragging" : ""}`}
      onDragOver=${(event: DragEvent) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave=${() => setDragging(false)}
      onDrop=${onDrop}
    >
      <label for="image-files">Drop images here, or choose files (JPEG, PNG, WebP, GIF, TIFF, AVIF; large files are uploaded first; a PDF is analyzed in the PDF section)</label>
      <input id="image-files" type="file" multiple accept=${ACCEPTED} onChange=${(event: Event) => {
        const input = event.currentTarget as HTMLInputElement;
        add(input.files);
        input.value = "";
      }} />
    </div>
    ${items.length > 0
      ? html`<button type="button" onClick=${() => items.forEach((item) => optimize(item, choices))}>Optimize all again with these options</button>`
      : null}
    <div class="image-items">
      ${items.map((item) => html`<${ImageItem} key=${item.id} item=${item} previewPrice=${prices.image} onPreview=${() => preview(item)} />`)}
    </div>
  </section>`;
}
