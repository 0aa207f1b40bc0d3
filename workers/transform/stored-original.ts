// A transform's original as it sits in R2, read no more than the path taken needs: a ranged read
// for its header, the whole object only for an original the edge may decode, and otherwise a
// stream the isolate hands to the origin without holding it.
import { readObject } from "../objects/file-objects.ts";
import type { FileRecord } from "../files/file-store.ts";
import type { DerivativeSource } from "./compute-derivative.ts";

export function storedOriginal(files: R2Bucket, record: Pick<FileRecord, "id" | "r2_key" | "size_bytes">): DerivativeSource {
  return {
    fileId: record.id,
    size: record.size_bytes,
    readStart: async (length) => {
      const range = length >= record.size_bytes ? {} : { range: { offset: 0, length } };
      return new Uint8Array(await (await readObject(files, record.r2_key, record.id, range)).arrayBuffer());
    },
    stream: async () => (await readObject(files, record.r2_key, record.id)).body,
  };
}
