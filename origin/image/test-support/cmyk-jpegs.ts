// CMYK JPEGs without a profile, as ImageMagick, scanners and print workflows write them: ink
// from RGB by the naive rule (K = 255 − max(R, G, B), the rest of each colour's ink under it),
// stored Adobe-style (inverted samples), with an APP14 marker saying the samples are plain CMYK
// (transform 0) or YCCK (transform 2), or with no APP14 marker at all.
import sharp from "sharp";
import { cmykTiff } from "../../pdf/cmyk-tiff.ts";

export type Adobe = "cmyk" | "ycck" | "no-marker";

/** Ink amounts (255 = full ink), four samples a pixel, for RGB samples three a pixel. */
export function naiveInk(rgb: Uint8Array): Uint8Array {
  const pixels = rgb.length / 3;
  const ink = new Uint8Array(pixels * 4);
  for (let p = 0; p < pixels; p++) {
    const [r, g, b] = [rgb[p * 3] ?? 0, rgb[p * 3 + 1] ?? 0, rgb[p * 3 + 2] ?? 0];
    const k = 255 - Math.max(r, g, b);
    const under = 255 - k;
    ink.set(under === 0 ? [0, 0, 0, 255] : [r, g, b].map((v) => Math.round(((under - v) * 255) / under)).concat(k), p * 4);
  }
  return ink;
}

// libjpeg decodes YCCK by turning Y, Cb, Cr into "RGB" and storing 255 − that as C, M, Y. So the
// ink amounts, read as RGB, go through the JFIF forward transform.
function ycckSamples(ink: Uint8Array): Uint8Array {
  const out = new Uint8Array(ink.length);
  for (let at = 0; at < ink.length; at += 4) {
    const [r, g, b, k] = [ink[at] ?? 0, ink[at + 1] ?? 0, ink[at + 2] ?? 0, ink[at + 3] ?? 0];
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    const cb = -0.168736 * r - 0.331264 * g + 0.5 * b + 128;
    const cr = 0.5 * r - 0.418688 * g - 0.081312 * b + 128;
    // libvips inverts CMYK samples when it writes them; pre-invert so Y, Cb, Cr are what is stored.
    out.set([255 - y, 255 - cb, 255 - cr].map((v) => Math.max(0, Math.min(255, Math.round(v)))).concat(k), at);
  }
  return out;
}

export async function unprofiledCmykJpeg(rgb: Uint8Array, width: number, height: number, adobe: Adobe, quality = 95): Promise<Uint8Array> {
  const ink = naiveInk(rgb);
  const samples = adobe === "ycck" ? ycckSamples(ink) : ink;
  const jpeg = new Uint8Array(
    await sharp(cmykTiff({ data: samples, width, height, channels: 4 }))
      .pipelineColourspace("cmyk")
      .toColourspace("cmyk")
      .jpeg({ quality, chromaSubsampling: "4:4:4" })
      .toBuffer(),
  );
  const app14 = findAdobeSegment(jpeg);
  if (adobe === "no-marker") return new Uint8Array([...jpeg.subarray(0, app14.start), ...jpeg.subarray(app14.end)]);
  jpeg[app14.transformAt] = adobe === "ycck" ? 2 : 0;
  return jpeg;
}

/** The APP14 "Adobe" segment libjpeg writes for CMYK: where it is and where its transform byte is. */
export function findAdobeSegment(jpeg: Uint8Array): { start: number; end: number; transformAt: number } {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at + 1] !== 0xda) {
    const length = view.getUint16(at + 2);
    const identifier = String.fromCharCode(...jpeg.subarray(at + 4, at + 9));
    if (jpeg[at + 1] === 0xee && identifier === "Adobe") return { start: at, end: at + 2 + length, transformAt: at + 4 + 11 };
    at += 2 + length;
  }
  throw new Error("no APP14 Adobe segment");
}

const SWATCHES = [
  [220, 30, 30],
  [30, 170, 60],
  [40, 60, 200],
  [20, 190, 220],
  [200, 40, 170],
  [240, 210, 40],
  [224, 172, 140],
  [128, 128, 128],
] as const;

/**
 * Bands of saturated and skin colours, each from dark to light: where a press profile and the
 * browsers' naive rule disagree most, and smooth, so JPEG loss stays small.
 */
export function colourBands(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const light = 0.25 + (0.75 * y) / Math.max(1, height - 1);
    for (let x = 0; x < width; x++) {
      const swatch = SWATCHES[Math.floor((x * SWATCHES.length) / width)] ?? SWATCHES[0];
      rgb.set(swatch.map((v) => Math.round(v * light)), (y * width + x) * 3);
    }
  }
  return rgb;
}
