// Hand-made distortions whose order is obvious, for the metric's tests and bench:quality.
import sharp, { type Sharp } from "sharp";
import { seededRandom } from "../../image/test-support/seeded-random.ts";
import type { RawImage } from "../raw-image.ts";

export interface Distortion {
  /** e.g. "jpeg q70", "blur 2", "noise 16". */
  name: string;
  family: "jpeg" | "blur" | "noise";
  /** Larger is worse within a family. */
  severity: number;
  apply: (image: RawImage) => Promise<RawImage>;
}

const JPEG_QUALITIES = [90, 70, 40, 20];
// sharp leaves an image unchanged below sigma 0.6.
const BLUR_SIGMAS = [0.6, 1, 2, 4];
const NOISE_AMPLITUDES = [4, 8, 16, 32];

export const DISTORTIONS: Distortion[] = [
  ...JPEG_QUALITIES.map((quality): Distortion => ({ name: `jpeg q${quality}`, family: "jpeg", severity: 100 - quality, apply: (image) => jpegRoundTrip(image, quality) })),
  ...BLUR_SIGMAS.map((sigma): Distortion => ({ name: `blur ${sigma}`, family: "blur", severity: sigma, apply: (image) => gaussianBlur(image, sigma) })),
  ...NOISE_AMPLITUDES.map((amplitude): Distortion => ({ name: `noise ${amplitude}`, family: "noise", severity: amplitude, apply: (image) => Promise.resolve(uniformNoise(image, amplitude)) })),
];

function rawInput(image: RawImage) {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}

async function rawOutput(pipeline: Sharp, channels: RawImage["channels"]): Promise<RawImage> {
  const { data, info } = await (channels === 3 ? pipeline.removeAlpha() : pipeline.ensureAlpha()).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels };
}

export async function jpegRoundTrip(image: RawImage, quality: number): Promise<RawImage> {
  const jpeg = await rawInput(image).jpeg({ quality }).toBuffer();
  return rawOutput(sharp(jpeg), image.channels);
}

async function gaussianBlur(image: RawImage, sigma: number): Promise<RawImage> {
  return rawOutput(rawInput(image).blur(sigma), image.channels);
}

export function uniformNoise(image: RawImage, amplitude: number): RawImage {
  const random = seededRandom(amplitude);
  const data = new Uint8Array(image.data);
  for (let i = 0; i < data.length; i++) {
    if (image.channels === 4 && i % 4 === 3) continue;
    data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + (random() - 0.5) * 2 * amplitude)));
  }
  return { ...image, data };
}
