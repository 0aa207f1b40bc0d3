// A presigned S3 PUT (SigV4 in the query string). Content-Length and Content-Type are among the
// signed headers, so R2 refuses a PUT of any other length or type: the declared size is enforced
// by the storage itself, not checked afterwards.
import { AwsClient } from "aws4fetch";
import type { UploadEndpoint } from "./upload-endpoint.ts";
import { UPLOAD_URL_TTL_SECONDS } from "./upload-limits.ts";

export interface PresignedUpload {
  method: "PUT";
  url: string;
  /** Send exactly these headers with the PUT. */
  headers: { "Content-Type": string; "Content-Length": string };
  expiresAt: number;
}

function amzDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[:-]|\.\d{3}/g, "");
}

export async function presignUpload(
  endpoint: UploadEndpoint,
  key: string,
  object: { contentType: string; sizeBytes: number },
  now = Date.now(),
): Promise<PresignedUpload> {
  const client = new AwsClient({
    accessKeyId: endpoint.accessKeyId,
    secretAccessKey: endpoint.secretAccessKey,
    service: "s3",
    region: "auto",
  });
  const url = new URL(`${endpoint.bucketUrl}/${key}`);
  url.searchParams.set("X-Amz-Expires", String(UPLOAD_URL_TTL_SECONDS));
  const headers = { "Content-Type": object.contentType, "Content-Length": String(object.sizeBytes) };
  // aws4fetch leaves content-type and content-length unsigned unless told to sign every header.
  const signed = await client.sign(url.toString(), {
    method: "PUT",
    headers,
    aws: { signQuery: true, allHeaders: true, datetime: amzDate(now) },
  });
  return { method: "PUT", url: signed.url, headers, expiresAt: now + UPLOAD_URL_TTL_SECONDS * 1000 };
}
