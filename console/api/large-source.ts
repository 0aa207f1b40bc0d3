// Where a dropped file's bytes go: inline as base64 up to the service's inline limit, else through a
// presigned upload first (with its progress), so the call names it by file id.
import { SYNC_SOURCE_MAX_BYTES } from "../../contracts/limits/inline-source.ts";
import { fileAsBase64 } from "../images/file-bytes.ts";
import type { ApiClient } from "./api-client.ts";
import { uploadFile, type UploadProgress } from "./upload-file.ts";

export type Source = { base64: string } | { file_id: string };

export const needsUpload = (file: Blob) => file.size > SYNC_SOURCE_MAX_BYTES;

export async function sourceOf(api: ApiClient, file: File, onProgress: UploadProgress): Promise<Source> {
  if (!needsUpload(file)) return { base64: await fileAsBase64(file) };
  return { file_id: (await uploadFile(api, file, onProgress)).file_id };
}
