// One R2 write for bytes in memory or a stream of a known length, with the SHA-256 R2 checks
// the stored bytes against when one is given.
export interface ObjectBody {
  body: Uint8Array | ReadableStream<Uint8Array>;
  size: number;
  sha256?: string | null;
}

export async function putObject(bucket: R2Bucket, key: string, input: ObjectBody, options: R2PutOptions = {}): Promise<void> {
  const withDigest: R2PutOptions = { ...options, ...(input.sha256 ? { sha256: input.sha256 } : {}) };
  if (input.body instanceof Uint8Array) {
    await bucket.put(key, input.body, withDigest);
    return;
  }
  // R2 needs a known length to stream; FixedLengthStream supplies it and fails the write when
  // the stream yields more or fewer bytes than promised. Both sides are awaited so a failure on
  // either is reported here rather than left as an unhandled rejection.
  const fixed = new FixedLengthStream(input.size);
  const [written, piped] = await Promise.allSettled([bucket.put(key, fixed.readable, withDigest), input.body.pipeTo(fixed.writable)]);
  if (written.status === "rejected") throw written.reason;
  if (piped.status === "rejected") throw piped.reason;
}
