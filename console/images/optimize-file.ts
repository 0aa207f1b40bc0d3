// One dropped file through POST /v1/image/optimize, and its result as something the page shows.
import type { ApiClient } from "../api/api-client.ts";
import type { ImageOptions, ImageResult } from "../api/types.ts";
import { base64AsObjectUrl, fileAsBase64 } from "./file-bytes.ts";

const CONTENT_TYPES: Record<ImageResult["format"], string> = { jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif", png: "image/png" };
const EXTENSIONS: Record<ImageResult["format"], string> = { jpeg: "jpg", webp: "webp", avif: "avif", png: "png" };

export interface OptimizedImage {
  result: ImageResult;
  /** A blob URL of inline bytes, or the signed download URL. */
  url: string;
  downloadName: string;
}

export async function optimizeFile(api: ApiClient, file: File, options: ImageOptions): Promise<OptimizedImage> {
  const base64 = await fileAsBase64(file);
  const result = await api.post<ImageResult>("/v1/image/optimize", { source: { base64 }, options });
  const url = result.base64 !== undefined ? base64AsObjectUrl(result.base64, CONTENT_TYPES[result.format]) : result.url!;
  const stem = file.name.replace(/\.[^.]*$/, "") || "image";
  return { result, url, downloadName: `${stem}.${EXTENSIONS[result.format]}` };
}
