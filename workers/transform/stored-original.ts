// A transform's original as it sits in R2, read no more than the path taken needs: a ranged read
// for its header, the whole object only for an original the edge may decode, and otherwise a
// stream the isolate hands to the origin without holding it.
import { ProblemError } from "../contracts/problems.ts";
import type { FileRecord } from "../files/file-store.ts";
import type { DerivativeSource } from "./compute-derivative.ts";

export function storedOriginal(files: R2Bucket, record: Pick<FileRecord, "id" | "r2_key" | "size_bytes">): DerivativeSource {
  const read = async (options: R2GetOptions = {}): Promise<R2ObjectBody> => {
    const object = await files.get(record.r2_key, options);
    // The row was marked deleted between the lookup and the read.
    if (!object) throw new ProblemError("gone", `File ${record.id} was deleted.`);
    return object;
  };
  return {
    fileId: record.id,
    size: record.size_bytes,
    readStart: async (length) => {
      const whole = length >= record.size_bytes;
      const object = await read(whole ? {} : { range: { offset: 0, length } });
      return new Uint8Array(await object.arrayBuffer());
    },
    stream: async () => (await read()).body,
  };
}
