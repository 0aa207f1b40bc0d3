// Pictures of a stored PDF's pages: the service's page transform (`pg_<n>`) at a width, as URLs an
// <img> loads without the API key (the key id is public). Signed by the service when the account
// requires signatures. Each distinct picture is a derivative of the file, billed once.
import { transformPath } from "../../contracts/transform/path.ts";
import type { ApiClient } from "../api/api-client.ts";
import { signedUrls } from "../urls/sign-urls.ts";
import type { TransformAccess } from "../urls/transform-access.ts";
import { pageTransform } from "./page-picture-plan.ts";

/** Each of `pages` as a picture of `fileId` at `width`, by page number. */
export async function pagePictureUrls(api: ApiClient, access: TransformAccess, fileId: string, pages: readonly number[], width: number): Promise<Map<number, string>> {
  const keyId = access.keyId.trim();
  const transforms = pages.map((page) => pageTransform(page, width));
  const urls = access.signed
    ? await signedUrls(api, keyId, fileId, transforms)
    : new Map(transforms.map((transform) => [transform, transformPath(encodeURIComponent(keyId), transform, fileId)]));
  return new Map(pages.map((page) => [page, urls.get(pageTransform(page, width))!]));
}
