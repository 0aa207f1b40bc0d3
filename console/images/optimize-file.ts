// One dropped file through POST /v1/image/optimize, and its result as something the page shows.
// The result comes inline or as the signed URL the options ask for, whatever the source's size.
import type { ApiClient } from "../api/api-client.ts";
import { sourceOf } from "../api/large-source.ts";
import type { UploadProgress } from "../api/upload-file.ts";
import type { ImageOptions, ImageResult } from "../api/types.ts";
import { base64AsObjectUrl } from "./file-bytes.ts";
import { optimizedImageName } from "../../contracts/derived-file-name.ts";

const CONTENT_TYPES: Record<ImageResult["format"], string> = { jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif", png: "image/png" };

export interface OptimizedImage {
  result: ImageResult;
  /** A blob URL of inline bytes, or the signed download URL. */
  url: string;
  downloadName: string;
}

/** A file past the inline limit is uploaded first (`onUpload` follows the PUT), then named by its file id. */
export async function optimizeFile(api: ApiClient, file: File, options: ImageOptions, onUpload: UploadProgress): Promise<OptimizedImage> {
  const source = await sourceOf(api, file, onUpload);
  const result = await api.post<ImageResult>("/v1/image/optimize", { source, options });
  const url = result.base64 !== undefined ? base64AsObjectUrl(result.base64, CONTENT_TYPES[result.format]) : result.url!;
  return { result, url, downloadName: optimizedImageName(file.name, result.format) };
}
