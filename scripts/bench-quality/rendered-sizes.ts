// The two output sizes the quality bench judges each image at: 1600 px wide (downscale only, as a
// page would show it) and the original. An image no wider than 1600 px is the same picture at
// both, so it is measured once, as `original`.
import { imageOptionsSchema, type ImageOptions } from "../../contracts/image-options.ts";
import { inspectSource } from "../../origin/image/decode-limits.ts";
import { renderPixels } from "../../origin/image/pipeline.ts";
import type { RawImage } from "../../origin/quality/raw-image.ts";

export const PAGE_WIDTH = 1600;

export interface RenderedSize {
  label: "1600" | "original";
  /** The options that render it (width null keeps the original). */
  options: Pick<ImageOptions, "width">;
  /** The pixels every output at this size is scored against: the service's own rendering. */
  reference: RawImage;
}

export async function renderedSizes(input: Uint8Array): Promise<RenderedSize[]> {
  const source = await inspectSource(input);
  const sizes: RenderedSize[] = [];
  for (const width of source.width > PAGE_WIDTH ? [PAGE_WIDTH, null] : [null]) {
    const options = imageOptionsSchema.parse({ width });
    const pixels = await renderPixels(input, source, options, false);
    if (pixels.channels !== 3) throw new Error(`the quality bench takes opaque colour images; this one renders with ${pixels.channels} channels`);
    sizes.push({
      label: width === null ? "original" : "1600",
      options: { width },
      reference: { data: new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength), width: pixels.width, height: pixels.height, channels: 3 },
    });
  }
  return sizes;
}
