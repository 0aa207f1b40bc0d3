// Signed transform URLs without the signing secret: the service signs them (POST /v1/image/sign)
// with the key's secret, which never reaches the browser.
import type { components } from "../../clients/ts/api-types.ts";
import type { ApiClient } from "../api/api-client.ts";

type SignedTransforms = components["schemas"]["SignedTransforms"];

/** Each canonical transform of `fileId` to its signed URL. */
export async function signedUrls(api: ApiClient, keyId: string, fileId: string, canonicals: readonly string[]): Promise<Map<string, string>> {
  const transforms = [...new Set(canonicals)];
  const signed = await api.post<SignedTransforms>("/v1/image/sign", { key_id: keyId, source: fileId, transforms });
  return new Map(signed.urls.map((url) => [url.transform, url.url]));
}
