// Mezzanines in R2, one per file under `mezzanine/{file_id}`, with the origin's meta (its size
// and the original's) in the object's custom metadata so the edge can tell whether it serves a
// transform before reading its body. A mezzanine is a private intermediate, not a derivative:
// no D1 row, not billed, not counted against the per-file derivative cap. It goes when its file
// goes (workers/files/file-lifecycle.ts, on deletion and in the expiry sweep).
import { readImageHeader, type ImageHeader } from "../edge-image/image-header.ts";
import { originMezzanineReplySchema, type OriginMezzanineMeta } from "../../contracts/origin/image-mezzanine.ts";
import { deleteObjects } from "../objects/delete-objects.ts";


export function mezzanineKey(fileId: string): string {
  return `mezzanine/${fileId}`;
}

export interface Mezzanine {
  bytes: Uint8Array;
  header: ImageHeader;
  meta: OriginMezzanineMeta;
}

/** A stored mezzanine's meta (from a HEAD), its body read only if it is wanted. */
export interface StoredMezzanine {
  meta: OriginMezzanineMeta;
  read(): Promise<Mezzanine | null>;
}

function parseMeta(custom: Record<string, string> | undefined): OriginMezzanineMeta | null {
  try {
    const parsed = originMezzanineReplySchema.safeParse(JSON.parse(custom?.meta ?? "null"));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Null when the file has none (or an unreadable one, which the caller then makes again). */
export async function findMezzanine(files: R2Bucket, fileId: string): Promise<StoredMezzanine | null> {
  const head = await files.head(mezzanineKey(fileId));
  const meta = head ? parseMeta(head.customMetadata) : null;
  if (!meta) return null;
  return {
    meta,
    read: async () => {
      const object = await files.get(mezzanineKey(fileId));
      if (!object) return null;
      const bytes = new Uint8Array(await object.arrayBuffer());
      const header = readImageHeader(bytes);
      return header ? { bytes, header, meta } : null;
    },
  };
}

export async function storeMezzanine(files: R2Bucket, fileId: string, bytes: Uint8Array, meta: OriginMezzanineMeta): Promise<void> {
  await files.put(mezzanineKey(fileId), bytes, {
    httpMetadata: { contentType: meta.format === "png" ? "image/png" : "image/jpeg" },
    customMetadata: { meta: JSON.stringify(meta) },
  });
}

export async function deleteMezzaninesOf(files: R2Bucket, fileIds: string[]): Promise<void> {
  await deleteObjects(files, fileIds.map(mezzanineKey));
}
