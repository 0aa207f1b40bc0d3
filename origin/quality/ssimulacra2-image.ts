// The image side every SSIMULACRA 2 implementation here shares: reading an RGB(A) buffer into
// linear-light rows (a transparent pixel over a given background), the number of scales, and
// accumulating a row into the next scale's 2x2 box average.
import type { RawImage } from "./raw-image.ts";
import { SCALES, SRGB_TO_LINEAR, type LinearImage } from "./ssimulacra2-parameters.ts";

export function hasTransparency(image: RawImage): boolean {
  if (image.channels !== 4) return false;
  for (let i = 3; i < image.data.length; i += 4) if (image.data[i] !== 255) return true;
  return false;
}

export function bytesReader(image: RawImage, background: number): LinearImage {
  const { data, width, height, channels } = image;
  if (data.length !== width * height * channels) throw new RangeError(`expected ${width * height * channels} bytes for ${width}x${height}x${channels}, got ${data.length}`);
  return {
    width,
    height,
    readRow(y, red, green, blue) {
      let i = y * width * channels;
      for (let x = 0; x < width; x++, i += channels) {
        if (channels === 4 && data[i + 3] !== 255) {
          const alpha = data[i + 3]! / 255;
          const under = background * (1 - alpha);
          red[x] = SRGB_TO_LINEAR[data[i]!]! * alpha + under;
          green[x] = SRGB_TO_LINEAR[data[i + 1]!]! * alpha + under;
          blue[x] = SRGB_TO_LINEAR[data[i + 2]!]! * alpha + under;
        } else {
          red[x] = SRGB_TO_LINEAR[data[i]!]!;
          green[x] = SRGB_TO_LINEAR[data[i + 1]!]!;
          blue[x] = SRGB_TO_LINEAR[data[i + 2]!]!;
        }
      }
    },
  };
}

export function scaleCount(width: number, height: number): number {
  let count = 1;
  for (let w = width, h = height; count < SCALES && w >= 8 && h >= 8; w = (w + 1) >> 1, h = (h + 1) >> 1) count++;
  return count;
}

export function accumulateHalf(plane: Float32Array, row: Float32Array, y: number, width: number, height: number): void {
  const weight = (height & 1) === 1 && y === height - 1 ? 0.5 : 0.25;
  const start = (y >> 1) * ((width + 1) >> 1);
  for (let x = 0; x < width; x++) plane[start + (x >> 1)]! += row[x]! * weight;
  if ((width & 1) === 1) plane[start + (width >> 1)]! += row[width - 1]! * weight;
}
