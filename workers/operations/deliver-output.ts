import { z } from "@hono/zod-openapi";
import type { OutputMode } from "../../contracts/envelope.ts";
import type { Bindings } from "../env.ts";
import { signedDownloadUrl } from "../files/download-signature.ts";
import { chargeOnce } from "../billing/charge-once.ts";
import type { Charge } from "../billing/charge.ts";
import { deleteFile } from "../files/file-lifecycle.ts";
import { storeFile } from "../files/file-store.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";


export const deliveredOutputSchema = z.object({
  file_id: z.string().nullable().openapi({ example: "file_8kT2bQ7xLw3mZr9Xc1Vd", description: "null when only base64 was asked for" }),
  url: z.string().nullable().openapi({
    description: "Signed download link, valid without an API key until expires_at; POST /v1/files/{file_id}/ack deletes it at once.",
    example: "http://127.0.0.1:8787/v1/files/file_8kT2bQ7xLw3mZr9Xc1Vd/content?account=acct_4Fh8Kq2ZpW9tLm3Xc7Vd&expires=1795514400&sig=3q2-7w",
  }),
  expires_at: z.string().nullable().openapi({ example: "2026-11-24T10:00:00.000Z" }),
  base64: z.string().optional().openapi({ description: "The output bytes, when `output` is `base64` or `both`." }),
});

export type DeliveredOutput = z.infer<typeof deliveredOutputSchema>;

type OutputEnv = Pick<Bindings, "DB" | "ACCOUNT_SHARDS" | "FILE_SHARDS" | "FILES" | "SIGNING_SECRET" | "PUBLIC_BASE_URL" | "CF_ZONE_ID" | "CF_API_TOKEN" | "CF_API_BASE_URL">;

/**
 * Stores a result for download and/or inlines it, as the request's `output` asks, and charges for
 * it. The charge comes after the store so nothing is billed without a result; when the charge
 * fails (402), the stored result is deleted again, so nothing is delivered unbilled either.
 */
export async function deliverOutput(
  env: OutputEnv,
  output: { body: Uint8Array | ReadableStream<Uint8Array>; size: number; contentType: string; filename: string },
  mode: OutputMode,
  baseUrl: string,
  charge: Charge,
): Promise<DeliveredOutput> {
  // Inline output needs the bytes in memory; a URL-only result streams straight into R2.
  const body = mode === "url" || output.body instanceof Uint8Array ? output.body : new Uint8Array(await new Response(output.body).arrayBuffer());
  const base64 = mode === "url" ? undefined : encodeBase64(body as Uint8Array);
  if (mode === "base64") {
    await chargeOnce(env, charge);
    return { file_id: null, url: null, expires_at: null, base64 };
  }
  const record = await storeFile(env, {
    accountId: charge.accountId,
    kind: "result",
    body,
    size: output.size,
    contentType: output.contentType,
    filename: output.filename,
  });
  try {
    await chargeOnce(env, charge);
  } catch (error) {
    await deleteFile(env, charge.accountId, record.id);
    throw error;
  }
  return {
    file_id: record.id,
    url: await signedDownloadUrl(env.SIGNING_SECRET, baseUrl, record),
    expires_at: record.expires_at === null ? null : new Date(record.expires_at).toISOString(),
    ...(base64 !== undefined ? { base64 } : {}),
  };
}
