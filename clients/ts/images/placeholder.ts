// What a page shows while an image loads, from GET /v1/files/{id}/placeholder: fetched with the
// API key (server side: SSR, a build step, a route handler), then handed to the page as plain
// strings. `lqip` is a data URL, so the preview needs no request of its own.
import { PixelPressError, problemOf } from "../api-error.ts";
import type { components } from "../api-types.ts";
import type { PixelPressClient } from "../client.ts";

export type ImagePlaceholder = components["schemas"]["ImagePlaceholder"];

/** The file's placeholder: ThumbHash, BlurHash, dominant colour, the LQIP data URL and the image's size. Free. */
export async function placeholderFor(client: Pick<PixelPressClient, "http">, fileId: string): Promise<ImagePlaceholder> {
  const { data, error, response } = await client.http.GET("/v1/files/{file_id}/placeholder", { params: { path: { file_id: fileId } } });
  if (!response.ok || data === undefined) throw new PixelPressError(problemOf(error, response));
  return data;
}

/** next/image's props for a blurred preview: `<Image {...blurProps(p)} src=... alt=... />`. */
export function blurProps(placeholder: ImagePlaceholder): { placeholder: "blur"; blurDataURL: string; width: number; height: number } {
  return { placeholder: "blur", blurDataURL: placeholder.lqip, width: placeholder.width, height: placeholder.height };
}

/**
 * A `style` for a plain `<img>`: the LQIP stretched under the image (dominant colour behind it)
 * until the full image paints over it. The LQIP's characters are base64 and the colour is
 * #rrggbb, so nothing here can break out of the attribute or the url().
 */
export function placeholderStyle(placeholder: ImagePlaceholder): string {
  return `background-color:${placeholder.dominant_color};background-image:url("${placeholder.lqip}");background-size:cover;background-repeat:no-repeat`;
}
