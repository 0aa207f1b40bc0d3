// Where presigned uploads go and which credentials sign them. Production: R2's S3 API with the
// R2_* secrets. Local development: wrangler dev's own S3 endpoint for the bucket, on the public
// base URL (workers/http/public-base-url.ts, never the request's Host), with the fixed local-only
// credentials from wrangler.toml.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";

/** Must equal `bucket_name` of the FILES binding in wrangler.toml. */
export const FILES_BUCKET_NAME = "pixelpress-files";

/** LOCAL ONLY, public by design: wrangler.toml's `local_dev.experimental_s3_credentials`. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: "pixelpress-local", secretAccessKey: "pixelpress-local-secret" } as const;

export interface UploadEndpoint {
  bucketUrl: string;
  accessKeyId: string;
  secretAccessKey: string;
}

type EndpointEnv = Pick<Bindings, "ENVIRONMENT" | "R2_ACCOUNT_ID" | "R2_ACCESS_KEY_ID" | "R2_SECRET_ACCESS_KEY">;

export function uploadEndpoint(env: EndpointEnv, publicBase: string): UploadEndpoint {
  if (env.R2_ACCOUNT_ID && env.R2_ACCESS_KEY_ID && env.R2_SECRET_ACCESS_KEY) {
    return {
      bucketUrl: `https://${env.R2_ACCOUNT_ID}.r2.cloudflarestorage.com/${FILES_BUCKET_NAME}`,
      accessKeyId: env.R2_ACCESS_KEY_ID,
      secretAccessKey: env.R2_SECRET_ACCESS_KEY,
    };
  }
  if (env.ENVIRONMENT === "development") {
    return { bucketUrl: `${new URL(publicBase).origin}/cdn-cgi/local/r2/s3/${FILES_BUCKET_NAME}`, ...LOCAL_S3_CREDENTIALS };
  }
  throw new ProblemError("dependency_unavailable", "Uploads are not configured here: R2_ACCOUNT_ID, R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY are missing.");
}
