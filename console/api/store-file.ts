// A dropped file kept in the account, for what needs it by id: a PDF's page pictures are pg_
// transforms of a stored file. Always through the presigned upload, whatever its size: it carries
// the file's name, which the Files list shows and a result made from it is named after.
import type { ApiClient } from "./api-client.ts";
import { uploadFile, type StoredFile, type UploadProgress } from "./upload-file.ts";

export function storeFile(api: ApiClient, file: File, onProgress: UploadProgress): Promise<StoredFile> {
  return uploadFile(api, file, onProgress);
}

/**
 * A copy of a stored file, made by the service without sending the bytes again: for a call that
 * deletes an expiring source when it is done (compress), so the original stays for its pictures.
 */
export function copyFile(api: ApiClient, fileId: string): Promise<StoredFile> {
  return api.post<StoredFile>("/v1/files", { source: { file_id: fileId } });
}
