// What the colour steps' tests measure: the transform of a picture, decoded to its RGB pixels.
import sharp from "sharp";
import { originTransformSchema, type OriginTransformOptions } from "../../../contracts/origin/image-transform.ts";
import { transformImage } from "../transform-image.ts";

export async function transformedRgb(input: Uint8Array, options: Partial<OriginTransformOptions>): Promise<Uint8Array> {
  const out = await transformImage(input, originTransformSchema.parse({ quality: 76, output: "png", ...options }));
  return new Uint8Array(await sharp(out.bytes).removeAlpha().raw().toBuffer());
}

/** Mean and standard deviation of Rec. 709 luminance over RGB pixels. */
export function luminanceStats(rgb: Uint8Array): { mean: number; deviation: number } {
  const values: number[] = [];
  for (let i = 0; i < rgb.length; i += 3) values.push(0.2126 * rgb[i]! + 0.7152 * rgb[i + 1]! + 0.0722 * rgb[i + 2]!);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const deviation = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  return { mean, deviation };
}
