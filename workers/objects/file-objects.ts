// A file's R2 objects (its bytes, and what is derived from it): one write for bytes in memory
// or a stream of a known length, and one read that turns a missing object into 410.
import { ProblemError } from "../../contracts/problems/catalogue.ts";

export interface ObjectBody {
  body: Uint8Array | ReadableStream<Uint8Array>;
  size: number;
  sha256?: string | null;
}

/** `sha256`, when given, is what R2 checks the stored bytes against. */
export async function putObject(bucket: R2Bucket, key: string, input: ObjectBody, options: R2PutOptions = {}): Promise<void> {
  const withDigest: R2PutOptions = { ...options, ...(input.sha256 ? { sha256: input.sha256 } : {}) };
  if (input.body instanceof Uint8Array) {
    await bucket.put(key, input.body, withDigest);
    return;
  }
  // R2 needs a known length to stream; FixedLengthStream supplies it and fails the write when
  // the stream yields more or fewer bytes than promised. Both sides are awaited so a failure on
  // either is reported here rather than left as an unhandled rejection. A failed source (an origin
  // reply whose digest did not match, say) is the cause and is reported as such; R2's refusal of
  // the cut-off write is only its consequence.
  const fixed = new FixedLengthStream(input.size);
  const [written, piped] = await Promise.allSettled([bucket.put(key, fixed.readable, withDigest), input.body.pipeTo(fixed.writable)]);
  if (piped.status === "rejected") throw piped.reason;
  if (written.status === "rejected") throw written.reason;
}

/** A missing object means the file was deleted between the row lookup and the read: 410, like a deleted row. */
export async function readObject(bucket: R2Bucket, key: string, fileId: string, options: R2GetOptions = {}): Promise<R2ObjectBody> {
  const object = await bucket.get(key, options);
  if (!object) throw new ProblemError("gone", `File ${fileId} was deleted.`);
  return object;
}
