// A dropped file kept in the account, for what needs it by id: a PDF's page pictures are pg_
// transforms of a stored file. Inline as base64 up to the inline limit, else the presigned upload
// with its progress. Both expire with the account's retention.
import type { ApiClient } from "./api-client.ts";
import { needsUpload } from "./large-source.ts";
import { fileAsBase64 } from "../images/file-bytes.ts";
import { uploadFile, type StoredFile, type UploadProgress } from "./upload-file.ts";

export async function storeFile(api: ApiClient, file: File, onProgress: UploadProgress): Promise<StoredFile> {
  if (needsUpload(file)) return uploadFile(api, file, onProgress);
  return api.post<StoredFile>("/v1/files", { source: { base64: await fileAsBase64(file) } });
}

/**
 * A copy of a stored file, made by the service without sending the bytes again: for a call that
 * deletes an expiring source when it is done (compress), so the original stays for its pictures.
 */
export function copyFile(api: ApiClient, fileId: string): Promise<StoredFile> {
  return api.post<StoredFile>("/v1/files", { source: { file_id: fileId } });
}
