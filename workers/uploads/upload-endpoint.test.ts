import { describe, expect, it } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { LOCAL_S3_CREDENTIALS, uploadEndpoint } from "./upload-endpoint.ts";

const production = { R2_ACCOUNT_ID: "0123abcd", R2_ACCESS_KEY_ID: "AKID", R2_SECRET_ACCESS_KEY: "s3cr3t" };

describe("uploadEndpoint", () => {
  it("uses R2's S3 API with the secrets when they are set, whatever the environment", () => {
    for (const ENVIRONMENT of ["production", "development"]) {
      expect(uploadEndpoint({ ENVIRONMENT, ...production }, "https://api.pixelpress.dev/v1/uploads")).toEqual({
        bucketUrl: "https://0123abcd.r2.cloudflarestorage.com/pixelpress-files",
        accessKeyId: "AKID",
        secretAccessKey: "s3cr3t",
      });
    }
  });

  it("uses wrangler dev's local S3 endpoint on the request's origin in development", () => {
    expect(uploadEndpoint({ ENVIRONMENT: "development" }, "http://127.0.0.1:18787/v1/uploads")).toEqual({
      bucketUrl: "http://127.0.0.1:18787/cdn-cgi/local/r2/s3/pixelpress-files",
      ...LOCAL_S3_CREDENTIALS,
    });
  });

  it("never falls back to the local credentials outside development", () => {
    const error = (() => {
      try {
        return uploadEndpoint({ ENVIRONMENT: "production", R2_ACCOUNT_ID: "0123abcd" }, "https://api.pixelpress.dev/v1/uploads");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 503, slug: "dependency_unavailable" });
  });
});
