// What a page shows while an image loads: ThumbHash, BlurHash, the dominant colour and a tiny
// blurred WebP, all from one ≤100 px render of the upright sRGB pixels (ThumbHash's own input
// cap). The image's own size travels with them so the page reserves the right box.
import sharp, { type Sharp } from "sharp";
import { encode as blurhashEncode } from "blurhash";
import { rgbaToThumbHash } from "thumbhash";
import type { Size } from "../../contracts/image-orientation.ts";
import { LQIP_MAX_SIDE, type ImagePlaceholder } from "../../contracts/origin/image-placeholder.ts";
import { autoOrient } from "./auto-orient.ts";
import { decodeFailure } from "./decode-limits.ts";
import { openOriginal } from "./open-original.ts";
import { runSteps } from "./image-step.ts";
import { toSrgb } from "./to-srgb.ts";

const HASH_MAX_SIDE = 100;
// BlurHash's own suggestion for a landscape-ish photo; more components only lengthen the string.
const BLURHASH_COMPONENTS = { x: 4, y: 3 } as const;
// Measured on generated photos and gradients: quality 40 keeps a 16 px WebP well under 200 bytes
// while its colours stay within a few levels of the source's mean.
const LQIP_QUALITY = 40;

/** The placeholder of an image that is already upright sRGB (the optimize output, or a decoded source). */
export async function placeholderOf(image: Sharp, size: Size): Promise<ImagePlaceholder> {
  const { data, info } = await smallRgba(image);
  const lqip = await lqipWebp(data, info);
  return {
    thumbhash: Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64"),
    blurhash: blurhashEncode(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height, BLURHASH_COMPONENTS.x, BLURHASH_COMPONENTS.y),
    dominant_color: hexColour(dominantColour(data)),
    lqip: `data:image/webp;base64,${lqip.toString("base64")}`,
    width: size.width,
    height: size.height,
  };
}

/** The LQIP alone, as WebP bytes: what the `ph_lqip` transform token serves. */
export async function lqipOf(image: Sharp): Promise<Buffer> {
  // sharp keeps one resize per pipeline: the transform's own box is rendered first, or the
  // ≤100 px step below would replace it.
  const shaped = await image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const { data, info } = await smallRgba(sharp(shaped.data, { raw: { width: shaped.info.width, height: shaped.info.height, channels: shaped.info.channels } }));
  return lqipWebp(data, info);
}

/** The dominant colour (`#rrggbb`) of an image that is already upright sRGB, as placeholders give it. */
export async function dominantColorOf(image: Sharp): Promise<string> {
  const { data } = await smallRgba(image);
  return hexColour(dominantColour(data));
}

function smallRgba(image: Sharp): Promise<{ data: Buffer; info: { width: number; height: number } }> {
  return image
    .resize(HASH_MAX_SIDE, HASH_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .ensureAlpha()
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
}

function lqipWebp(rgba: Buffer, size: { width: number; height: number }): Promise<Buffer> {
  const small = sharp(rgba, { raw: { width: size.width, height: size.height, channels: 4 } });
  return (isOpaque(rgba) ? small.removeAlpha() : small)
    .resize(LQIP_MAX_SIDE, LQIP_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: LQIP_QUALITY, alphaQuality: LQIP_QUALITY, smartSubsample: true, effort: 6 })
    .toBuffer();
}

/** A source's placeholder: decoded under the input limits, oriented and made sRGB like every other pipeline. */
export async function computePlaceholder(original: Uint8Array): Promise<ImagePlaceholder> {
  const { input, source } = await openOriginal(original);
  try {
    const work = await runSteps(input, source, [autoOrient(true), toSrgb]);
    return await placeholderOf(work.image, work.upright);
  } catch (error) {
    throw decodeFailure(error);
  }
}

function isOpaque(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

// sharp's stats().dominant answers the centre of its histogram bin, up to 8 levels off on each
// channel; the mean of the pixels in the fullest bin is the colour they actually share.
// Pixels under half opacity are not what the eye sees, so they do not vote.
function dominantColour(rgba: Buffer): { r: number; g: number; b: number } {
  const counts = new Uint32Array(4096);
  const sums = new Float64Array(4096 * 3);
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i + 3]! < 128) continue;
    const [r, g, b] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
    const bin = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    counts[bin] = counts[bin]! + 1;
    sums.set([sums[bin * 3]! + r, sums[bin * 3 + 1]! + g, sums[bin * 3 + 2]! + b], bin * 3);
  }
  let fullest = 0;
  for (let bin = 1; bin < counts.length; bin++) if (counts[bin]! > counts[fullest]!) fullest = bin;
  const n = counts[fullest]!;
  if (n === 0) return { r: 0, g: 0, b: 0 };
  return { r: Math.round(sums[fullest * 3]! / n), g: Math.round(sums[fullest * 3 + 1]! / n), b: Math.round(sums[fullest * 3 + 2]! / n) };
}

function hexColour({ r, g, b }: { r: number; g: number; b: number }): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}
