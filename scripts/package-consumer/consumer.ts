// A user's code against the installed packages, type-checked by scripts/check-packages.sh under a
// strict tsc with nodenext and with bundler resolution. An assignment fails the check when a type
// drifts; nothing here runs.
import { createPixelPress, PixelPressError, type components, type JobAccepted } from "@pixelpress/client";
import { createImageUrls, placeholderStyle, type ImgAttributes } from "@pixelpress/client/images";
import { createSignedImageUrls } from "@pixelpress/client/server";
import { verifyWebhook } from "@pixelpress/client/webhooks";
import astroImageService from "@pixelpress/astro";
import { getImage } from "@pixelpress/nuxt";
import { createNextLoader } from "@pixelpress/next";
import { transform, type PixelPressOperations, type PixelPressOptions } from "@pixelpress/unpic";
import type { TransformerFunction } from "unpic";

type ImageResult = components["schemas"]["ImageResult"];

export async function optimize(apiKey: string): Promise<[ImageResult, JobAccepted, ImageResult]> {
  const pp = createPixelPress({ apiKey });
  const body = { source: { url: "https://example.com/photo.jpg" }, options: { format: "webp" as const, width: 1200 } };
  // Without `mode: "async"` the call is typed as its result, with it as the accepted job, and `wait` polls to the result.
  const result: ImageResult = await pp.image.optimize(body);
  const accepted: JobAccepted = await pp.image.optimize({ ...body, mode: "async" });
  const waited: ImageResult = await pp.image.optimize({ ...body, mode: "async" }, { wait: true });
  return [result, accepted, waited];
}

export function pageImages(): ImgAttributes {
  const urls = createImageUrls({ baseUrl: "https://api.pixelpress.dev", keyId: "key_pub" });
  const url: string = urls.transformUrl("file_abc", { width: 800, format: "auto", quality: "auto" });
  return { ...urls.imgAttributes("file_abc", { width: 400, widths: [400, 800] }), src: url };
}

export async function serverSide(rawBody: string, headers: Record<string, string>): Promise<string> {
  const signed = createSignedImageUrls({ baseUrl: "https://api.pixelpress.dev", keyId: "key_pub", signingSecret: "pps_secret" });
  await verifyWebhook({ headers, body: rawBody, secret: "whsec" });
  return signed.transformUrl("file_abc", { width: 400 });
}

export const adapters = {
  next: createNextLoader({ baseUrl: "https://api.pixelpress.dev", keyId: "key_pub" })({ src: "file_abc", width: 640 }),
  nuxt: getImage("file_abc", { modifiers: { width: 400 }, baseURL: "https://api.pixelpress.dev", keyId: "key_pub" }).url,
  astro: astroImageService.getURL,
  unpic: transform satisfies TransformerFunction<PixelPressOperations, PixelPressOptions>,
  style: placeholderStyle,
  error: PixelPressError,
};
