// A file stored in the account the way any client stores one: POST /v1/uploads, the presigned PUT
// straight to the service's own storage, then complete. The PUT goes through XMLHttpRequest, the
// one browser API that reports upload progress, so a 150 MB PDF shows how far it has come.
import type { components } from "../../clients/ts/api-types.ts";
import type { ApiClient } from "./api-client.ts";
import { ApiProblem } from "./api-problem.ts";

type CreatedUpload = components["schemas"]["CreatedUpload"];
export type StoredFile = components["schemas"]["File"];

/** Bytes sent so far, out of the file's size. */
export type UploadProgress = (sent: number, total: number) => void;

function put(upload: CreatedUpload["upload"], file: Blob, onProgress: UploadProgress): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(upload.method, upload.url);
    // Content-Length is the browser's to set (from the body); the signed Content-Type must match.
    request.setRequestHeader("Content-Type", upload.headers["Content-Type"]);
    request.upload.onprogress = (event) => onProgress(event.loaded, file.size);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      reject(new ApiProblem(request.status, "Storage refused the upload", `The presigned PUT was answered ${request.status}${request.statusText ? ` ${request.statusText}` : ""}; nothing was stored. Try again: a new upload gets a new link.`));
    };
    request.onerror = () => reject(new ApiProblem(0, "The upload did not reach storage", "The connection failed during the PUT; nothing was stored. Try again."));
    request.send(file);
  });
}

/** Uploads `file` and returns it ready; `expires_at: null` asks for a durable file. */
export async function uploadFile(api: ApiClient, file: File, onProgress: UploadProgress, options: { expiresAt?: string | null } = {}): Promise<StoredFile> {
  const created = await api.post<CreatedUpload>("/v1/uploads", {
    filename: file.name,
    content_type: file.type || "application/octet-stream",
    size_bytes: file.size,
    ...(options.expiresAt === undefined ? {} : { expires_at: options.expiresAt }),
  });
  onProgress(0, file.size);
  await put(created.upload, file, onProgress);
  return api.post<StoredFile>(`/v1/uploads/${created.file_id}/complete`);
}
