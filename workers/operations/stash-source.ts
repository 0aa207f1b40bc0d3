import type { Bindings } from "../env.ts";
import { storeFile } from "../files/file-store.ts";
import type { ResolvedSource } from "../sources/resolve-source.ts";

/**
 * An async job reads its input from R2, never from the queue message: a source that came as a
 * URL or base64 is stored as an uploaded file first (deleted after processing like any upload
 * unless the request keeps sources). Returns the file id the job will read.
 */
export async function stashSource(env: Pick<Bindings, "DB" | "FILES" | "FILE_SHARDS">, accountId: string, source: ResolvedSource): Promise<string> {
  if (source.file) return source.file.id;
  const record = await storeFile(env, {
    accountId,
    kind: "source",
    body: source.body as Uint8Array,
    size: source.size,
    contentType: source.type.mime,
    filename: source.filename,
  });
  return record.id;
}

/** The stored request of a one-source job: its source stashed in R2, its options, the base its links are built on. */
export async function stashedSourceRequest<Options>(
  env: Pick<Bindings, "DB" | "FILES" | "FILE_SHARDS">,
  accepted: { accountId: string; baseUrl: string; input: { source: ResolvedSource; body: { options: Options } } },
): Promise<{ source_file_id: string; options: Options; base_url: string }> {
  return { source_file_id: await stashSource(env, accepted.accountId, accepted.input.source), options: accepted.input.body.options, base_url: accepted.baseUrl };
}
