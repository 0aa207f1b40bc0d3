// The account's stored files (GET /v1/files, newest first, a page at a time by its opaque cursor):
// make one durable or give it an end (PATCH /v1/files/{id}), delete it (POST /v1/files/{id}/ack),
// copy an image's transform URL (signed by the service when the account requires it), or open it
// in the URL builder. A durable file can be uploaded here too, with its progress.
import { useEffect, useState } from "preact/hooks";
import { transformPath } from "../../contracts/transform/path.ts";
import type { ApiClient } from "../api/api-client.ts";
import { asProblem, type ApiProblem } from "../api/api-problem.ts";
import { uploadFile, type StoredFile } from "../api/upload-file.ts";
import type { components } from "../../clients/ts/api-types.ts";
import { html } from "../html.ts";
import { Busy } from "../ui/busy.ts";
import { formatByteSize } from "../../contracts/byte-size.ts";
import { ProblemView } from "../ui/problem-view.ts";
import { signedUrls } from "../urls/sign-urls.ts";
import type { TransformAccess } from "../urls/transform-access.ts";
import { expiryInputValue, fileListPath, keptUntil } from "./file-rows.ts";

type FileList = components["schemas"]["FileList"];

/** The transform a copied URL asks for: the file in the browser's best format, at its own size. */
const COPIED_TRANSFORM = "f_auto";
const PAGE_SIZE = 20;

export function FilesPanel({ api, access, active, onBuildUrls }: { api: ApiClient; access: TransformAccess; active: boolean; onBuildUrls: (fileId: string) => void }) {
  const [files, setFiles] = useState<StoredFile[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState<{ label: string; share?: number } | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [expiries, setExpiries] = useState<Record<string, string>>({});
  const [status, setStatus] = useState("");

  const run = async (label: string, work: () => Promise<void>) => {
    setBusy({ label });
    setProblem(null);
    setStatus("");
    try {
      await work();
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(null);
    }
  };
  const loadFirst = () =>
    run("Loading files", async () => {
      const page = await api.get<FileList>(fileListPath(PAGE_SIZE, null));
      setFiles(page.data);
      setNextCursor(page.next_cursor);
    });
  useEffect(() => {
    if (active) void loadFirst();
  }, [api, active]);

  const loadMore = () =>
    run("Loading more files", async () => {
      const page = await api.get<FileList>(fileListPath(PAGE_SIZE, nextCursor));
      setFiles((all) => [...(all ?? []), ...page.data]);
      setNextCursor(page.next_cursor);
    });
  const replace = (file: StoredFile) => setFiles((all) => (all ?? []).map((row) => (row.file_id === file.file_id ? file : row)));
  const setExpiry = (file: StoredFile, expiresAt: string | null) =>
    run(expiresAt === null ? `Making ${file.file_id} durable` : `Setting the expiry of ${file.file_id}`, async () => {
      replace(await api.patch<StoredFile>(`/v1/files/${file.file_id}`, { expires_at: expiresAt }));
      setStatus(expiresAt === null ? `${file.filename ?? file.file_id} is kept until deleted` : `${file.filename ?? file.file_id} now expires ${keptUntil(expiresAt)}`);
    });
  const remove = (file: StoredFile) =>
    run(`Deleting ${file.file_id}`, async () => {
      await api.post(`/v1/files/${file.file_id}/ack`);
      setConfirming(null);
      setFiles((all) => (all ?? []).filter((row) => row.file_id !== file.file_id));
      setStatus(`${file.filename ?? file.file_id} deleted`);
    });
  const copyUrl = (file: StoredFile) =>
    run(access.signed ? "Signing the URL" : "Copying the URL", async () => {
      const keyId = access.keyId.trim();
      if (keyId === "") {
        setStatus("No key id yet: give it under URLs (it is the pasted key's public id).");
        return;
      }
      const url = access.signed
        ? (await signedUrls(api, keyId, file.file_id, [COPIED_TRANSFORM])).get(COPIED_TRANSFORM)!
        : `${location.origin}${transformPath(encodeURIComponent(keyId), COPIED_TRANSFORM, file.file_id)}`;
      await navigator.clipboard.writeText(url).then(
        () => setStatus(`Copied ${url}`),
        () => setStatus(`Could not copy; the URL is ${url}`),
      );
    });
  const uploadDurable = (file: File | undefined) => {
    if (file === undefined) return;
    void run(`Uploading ${file.name}`, async () => {
      const stored = await uploadFile(api, file, (sent, total) => setBusy({ label: `Uploading ${file.name}, ${Math.round((sent / total) * 100)}% of ${formatByteSize(total)}`, share: sent / total }), { expiresAt: null });
      setFiles((all) => [stored, ...(all ?? [])]);
      setStatus(`${file.name} stored as ${stored.file_id}, kept until deleted`);
    });
  };

  return html`<section class="panel" hidden=${!active} aria-labelledby="files-heading">
    <h2 id="files-heading">Files</h2>
    <div class="field">
      <label for="durable-upload">Upload a durable file (kept until deleted; storage is charged daily)</label>
      <input id="durable-upload" type="file" onChange=${(event: Event) => {
        const input = event.currentTarget as HTMLInputElement;
        uploadDurable(input.files?.[0]);
        input.value = "";
      }} />
    </div>
    ${busy === null ? null : html`<${Busy} label=${busy.label} share=${busy.share} />`}
    ${problem === null ? null : html`<${ProblemView} problem=${problem} />`}
    <p role="status" class="hint" id="files-status">${status}</p>
    ${files === null
      ? null
      : files.length === 0
        ? html`<p class="hint">No stored files yet.</p>`
        : html`<div class="table-scroll"><table class="file-list">
            <caption>Stored files, newest first</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">File id</th><th scope="col">Type</th><th scope="col">Size</th><th scope="col">Created</th><th scope="col">Kept until</th><th scope="col">Actions</th></tr></thead>
            <tbody>
              ${files.map((file) => {
                const name = file.filename ?? file.file_id;
                const isImage = file.status === "ready" && file.content_type.startsWith("image/");
                return html`<tr data-file-id=${file.file_id}>
                  <td class="file-name">${file.download_url === null ? name : html`<a href=${file.download_url} download=${name}>${name}</a>`}</td>
                  <td><code>${file.file_id}</code></td>
                  <td>${file.content_type}${file.status === "ready" ? "" : ` (${file.status})`}</td>
                  <td>${formatByteSize(file.size_bytes)}</td>
                  <td>${file.created_at.slice(0, 16).replace("T", " ")}</td>
                  <td class="kept-until">${keptUntil(file.expires_at)}</td>
                  <td><div class="file-actions">
                    ${file.expires_at === null
                      ? html`<span class="expiry">
                          <label for=${`expiry-${file.file_id}`}>End for ${name}</label>
                          <input id=${`expiry-${file.file_id}`} type="datetime-local" value=${expiries[file.file_id] ?? expiryInputValue(new Date())} onInput=${(event: Event) => setExpiries({ ...expiries, [file.file_id]: (event.currentTarget as HTMLInputElement).value })} />
                          <button type="button" onClick=${() => void setExpiry(file, new Date(expiries[file.file_id] ?? expiryInputValue(new Date())).toISOString())}>Set expiry</button>
                        </span>`
                      : html`<button type="button" aria-label=${`Keep until deleted: ${name}`} onClick=${() => void setExpiry(file, null)}>Keep until deleted</button>`}
                    ${isImage
                      ? html`<button type="button" aria-label=${`Copy URL of ${name}`} onClick=${() => void copyUrl(file)}>Copy URL</button>
                          <button type="button" aria-label=${`Build URLs for ${name}`} onClick=${() => onBuildUrls(file.file_id)}>Build URLs</button>`
                      : null}
                    ${confirming === file.file_id
                      ? html`<button type="button" class="danger" onClick=${() => void remove(file)}>Delete ${name} for good</button>
                          <button type="button" onClick=${() => setConfirming(null)}>Keep it</button>`
                      : html`<button type="button" class="destructive" aria-label=${`Delete ${name}`} onClick=${() => setConfirming(file.file_id)}>Delete</button>`}
                  </div></td>
                </tr>`;
              })}
            </tbody>
          </table></div>`}
    ${nextCursor === null ? null : html`<button type="button" onClick=${() => void loadMore()}>Load more files</button>`}
  </section>`;
}
