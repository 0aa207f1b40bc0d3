// The one save configuration, shared by compress and by analyze's projection.
import { PDF_DEDUPE_MAX_OBJECTS } from "../../contracts/limits/pdf.ts";
import type { PdfCompressOptions } from "../../contracts/pdf-options.ts";

export function saveOptions(options: Pick<PdfCompressOptions, "fonts" | "dedupe_images">, encrypted: boolean, objectCount: number): string {
  const dedupe = (options.fonts.dedupe || options.dedupe_images) && objectCount <= PDF_DEDUPE_MAX_OBJECTS;
  // "keep" writes the input's encryption dictionary and keys again: never silently decrypted.
  return [`garbage=${dedupe ? "deduplicate" : "compact"}`, "compress", "objstms", ...(encrypted ? ["encrypt=keep"] : [])].join(",");
}
