import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { findFile, markFileReady, type FileRecord } from "../files/file-store.ts";

/**
 * Makes an uploaded file usable once its object is in R2 with the declared size and type. The
 * bytes are not inspected here: each processor sniffs its input. Completing twice is harmless.
 */
export async function completeUpload(env: Pick<Bindings, "FILES" | "FILE_SHARDS">, accountId: string, fileId: string): Promise<FileRecord> {
  const record = await findFile(env, accountId, fileId);
  if (record.status === "ready") return record;
  const object = await env.FILES.head(record.r2_key);
  if (!object) {
    throw new ProblemError("upload_incomplete", `Nothing has been uploaded for ${fileId} yet: PUT its ${record.size_bytes} bytes to the upload URL first.`);
  }
  const storedType = object.httpMetadata?.contentType ?? "no Content-Type";
  if (object.size !== record.size_bytes || storedType !== record.content_type) {
    throw new ProblemError(
      "upload_incomplete",
      `The uploaded object is ${object.size} bytes of ${storedType}, but ${record.size_bytes} bytes of ${record.content_type} were declared.`,
    );
  }
  return (await markFileReady(env, accountId, fileId)) ?? findFile(env, accountId, fileId);
}
