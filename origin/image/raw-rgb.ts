import type { Sharp } from "sharp";
import type { RawImage } from "../quality/raw-image.ts";

/** 8-bit sRGB, RGB or RGBA (as `channels` says, else as the image has alpha), for the metric. */
export async function rawRgb(image: Sharp, channels?: 3 | 4): Promise<RawImage> {
  const srgb = image.toColourspace("srgb");
  // A decoded probe's channels are the reference's: no header read before its pixels.
  const wanted = channels ?? ((await image.metadata()).hasAlpha ? 4 : 3);
  const { data, info } = await (wanted === 4 ? srgb.ensureAlpha() : srgb.removeAlpha()).raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: wanted };
}
