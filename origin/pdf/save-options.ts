// The one save configuration, shared by compress and by analyze's projection.
import type { PdfCompressOptions } from "../../contracts/pdf-options.ts";

export function saveOptions(options: Pick<PdfCompressOptions, "fonts" | "dedupe_images">, encrypted: boolean): string {
  const garbage = options.fonts.dedupe || options.dedupe_images ? "deduplicate" : "compact";
  // "keep" writes the input's encryption dictionary and keys again: never silently decrypted.
  return [`garbage=${garbage}`, "compress", "objstms", ...(encrypted ? ["encrypt=keep"] : [])].join(",");
}
