// Downsamples raw pixels with sharp (Lanczos 3). Four-channel data is CMYK, which
// sharp would take for RGBA and premultiply, so its channels are resized as a
// three-channel and a one-channel image and interleaved again.
import { rawInput } from "./encode-pixels.ts";
import type { RawPixels } from "./raw-pixels.ts";

async function resizePlain(pixels: RawPixels, width: number, height: number): Promise<Uint8Array> {
  const output = await rawInput(pixels).resize(width, height, { fit: "fill", kernel: "lanczos3" }).raw().toBuffer();
  return new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
}

function splitCmyk(pixels: RawPixels): [RawPixels, RawPixels] {
  const count = pixels.width * pixels.height;
  const cmy = new Uint8Array(count * 3);
  const k = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    cmy[i * 3] = pixels.data[i * 4] ?? 0;
    cmy[i * 3 + 1] = pixels.data[i * 4 + 1] ?? 0;
    cmy[i * 3 + 2] = pixels.data[i * 4 + 2] ?? 0;
    k[i] = pixels.data[i * 4 + 3] ?? 0;
  }
  return [
    { data: cmy, width: pixels.width, height: pixels.height, channels: 3 },
    { data: k, width: pixels.width, height: pixels.height, channels: 1 },
  ];
}

export async function resamplePixels(pixels: RawPixels, width: number, height: number): Promise<RawPixels> {
  if (width === pixels.width && height === pixels.height) return pixels;
  if (pixels.channels !== 4) return { data: await resizePlain(pixels, width, height), width, height, channels: pixels.channels };
  const [cmyPart, kPart] = splitCmyk(pixels);
  const [cmy, k] = await Promise.all([resizePlain(cmyPart, width, height), resizePlain(kPart, width, height)]);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = cmy[i * 3] ?? 0;
    data[i * 4 + 1] = cmy[i * 3 + 1] ?? 0;
    data[i * 4 + 2] = cmy[i * 3 + 2] ?? 0;
    data[i * 4 + 3] = k[i] ?? 0;
  }
  return { data, width, height, channels: 4 };
}
