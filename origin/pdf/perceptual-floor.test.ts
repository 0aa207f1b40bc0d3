import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { PDF_PROFILE_PARAMETERS, pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import type { PdfImageRewrite } from "../../contracts/origin/pdf-compress.ts";
import type { RawImage } from "../quality/raw-image.ts";
import { ssimulacra2 } from "../quality/ssimulacra2.ts";
import { photoLikePixels } from "../image/test-support/synthetic-images.ts";
import { analyzePdf } from "./analyze-pdf.ts";
import { compressPdf } from "./compress-pdf.ts";
import type { PdfCompressResult } from "./compress-pdf.ts";
import { encodeJpeg } from "./encode-pixels.ts";
import type { RawPixels } from "./raw-pixels.ts";
import { resamplePixels } from "./resample-pixels.ts";
import { buildPdf } from "./test-support/generate-pdf.ts";
import type { TestImage } from "./test-support/generate-pdf.ts";
import { pageImages } from "./test-support/inspect-output.ts";

const options = (input: PdfCompressOptionsInput = {}) => pdfCompressOptionsSchema.parse(input);
const EBOOK_FLOOR = PDF_PROFILE_PARAMETERS.ebook.perceptualFloor;
const WIDTH = 1200;
const HEIGHT = 800;
// 1200 x 800 px drawn at 288 x 192 pt is 300 dpi: ebook brings it to 150 dpi, 600 x 400 px.
const AT_300_DPI = { width: 288, height: 192 };

function pixels(value: (x: number, y: number, channel: number, noise: number) => number): RawPixels {
  const data = new Uint8Array(WIDTH * HEIGHT * 3);
  let state = 7;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      for (let c = 0; c < 3; c++) {
        state = (state * 1103515245 + 12345) & 0x7fffffff;
        data[(y * WIDTH + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(value(x, y, c, (state >> 16) / 32768 - 0.5))));
      }
    }
  }
  return { data, width: WIDTH, height: HEIGHT, channels: 3 };
}

/** A soft, out-of-focus photo: easy to compress, a low quality is enough. */
const smooth: RawPixels = {
  data: new Uint8Array(await sharp(photoLikePixels(WIDTH, HEIGHT, 5), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).blur(4).raw().toBuffer()),
  width: WIDTH,
  height: HEIGHT,
  channels: 3,
};
/**
 * Shaded vector art, like a logo drawn by cairo: saturated radial and linear gradients and a thin
 * stroke on flat black, no grain. Its sample of tiles scores it far better than its whole: the
 * estimate alone answered q45, whose whole scored 63.8 against ebook's 69.
 */
async function shadedGraphic(size: number): Promise<RawPixels> {
  const at = (v: number) => (v * size) / 664;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <defs>
      <radialGradient id="warm" cx="40%" cy="60%" r="70%"><stop offset="0" stop-color="#ffe14a"/><stop offset="0.5" stop-color="#ff6a2a"/><stop offset="1" stop-color="#e3126f"/></radialGradient>
      <radialGradient id="cold" cx="45%" cy="40%" r="60%"><stop offset="0" stop-color="#5a7cff"/><stop offset="1" stop-color="#9b2cf0"/></radialGradient>
      <linearGradient id="flame" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff36b"/><stop offset="1" stop-color="#ff8a1c"/></linearGradient>
    </defs>
    <rect width="${size}" height="${size}" fill="#000"/>
    <circle cx="${at(332)}" cy="${at(360)}" r="${at(190)}" fill="url(#warm)"/>
    <path d="M ${at(420)} ${at(140)} C ${at(520)} ${at(220)} ${at(560)} ${at(360)} ${at(470)} ${at(470)} L ${at(380)} ${at(300)} Z" fill="url(#flame)"/>
    <circle cx="${at(330)}" cy="${at(340)}" r="${at(95)}" fill="url(#cold)"/>
    <line x1="${at(370)}" y1="0" x2="${at(370)}" y2="${at(140)}" stroke="#ffd23c" stroke-width="${at(1.5)}"/>
  </svg>`;
  const data = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  return { data: new Uint8Array(data), width: size, height: size, channels: 3 };
}

/** Fine woven texture with grain, like a scanned fabric or print screen: blocks and blur show at once. */
const textured = pixels((x, y, c, noise) => 128 + 55 * Math.sin(x / 2.3 + c) * Math.cos(y / 1.9) + 70 * noise);

function flateImage(name: string, source: RawPixels): TestImage {
  return {
    name,
    stream: new Uint8Array(deflateSync(source.data)),
    dict: { Type: "XObject", Subtype: "Image", Width: source.width, Height: source.height, ColorSpace: "DeviceRGB", BitsPerComponent: 8, Filter: "FlateDecode" },
  };
}

async function decodedJpeg(jpeg: Uint8Array): Promise<RawImage> {
  const { data, info } = await sharp(jpeg).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

function rewriteOf(result: PdfCompressResult, page: number): PdfImageRewrite["after"] {
  const image = result.stats.images.find((candidate) => candidate.pages.includes(page));
  return image?.after ?? null;
}

describe("perceptual floor", () => {
  // Page 1 the smooth image, page 2 the textured one, both at 300 dpi.
  let twoImages: Uint8Array;
  let floored: PdfCompressResult;

  beforeAll(async () => {
    twoImages = buildPdf(
      [flateImage("Smooth", smooth), flateImage("Textured", textured)],
      [[{ image: "Smooth", x: 72, y: 400, ...AT_300_DPI }], [{ image: "Textured", x: 72, y: 400, ...AT_300_DPI }]],
    );
    floored = await compressPdf(twoImages, options({ profile: "ebook" }));
  });

  it("gives a textured image a higher quality than a smooth one", () => {
    const easy = rewriteOf(floored, 1);
    const hard = rewriteOf(floored, 2);
    expect(easy).toMatchObject({ width: 600, height: 400, filter: "DCTDecode" });
    expect(hard).toMatchObject({ width: 600, height: 400, filter: "DCTDecode" });
    expect(hard?.quality ?? 0).toBeGreaterThan((easy?.quality ?? 100) + 10);
  });

  it("re-encodes every image so that its decoded pixels meet the floor against the resampled original", async () => {
    const written = pageImages(floored.bytes);
    for (const [index, source] of [smooth, textured].entries()) {
      const image = written[index]?.[0];
      expect(image?.filter).toBe("DCTDecode");
      const reference = await resamplePixels(source, 600, 400);
      const score = ssimulacra2(reference as RawImage, await decodedJpeg(image?.raw ?? new Uint8Array()));
      expect(score, `page ${index + 1}`).toBeGreaterThanOrEqual(EBOOK_FLOOR);
    }
  });

  it("holds a shaded graphic, whose sample flatters it, to the floor scored whole", async () => {
    // 1328 px drawn 318.72 pt wide is 300 dpi: ebook writes it at 664 x 664.
    const graphic = await shadedGraphic(1328);
    const pdf = buildPdf([flateImage("Graphic", graphic)], [[{ image: "Graphic", x: 72, y: 300, width: 318.72, height: 318.72 }]]);
    const result = await compressPdf(pdf, options({ profile: "ebook" }));
    const written = pageImages(result.bytes)[0]?.[0];
    expect(written).toMatchObject({ width: 664, height: 664, filter: "DCTDecode" });
    const reference = await resamplePixels(graphic, 664, 664);
    const score = ssimulacra2(reference as RawImage, await decodedJpeg(written?.raw ?? new Uint8Array()));
    expect(score).toBeGreaterThanOrEqual(EBOOK_FLOOR);
  });

  it("uses an explicit image_quality exactly, for every image", async () => {
    const fixed = await compressPdf(twoImages, options({ profile: "ebook", image_quality: 45 }));
    const written = pageImages(fixed.bytes);
    for (const [index, source] of [smooth, textured].entries()) {
      expect(rewriteOf(fixed, index + 1)?.quality).toBe(45);
      const expected = await encodeJpeg(await resamplePixels(source, 600, 400), 45);
      expect(written[index]?.[0]?.raw).toEqual(expected.bytes);
    }
  });

  it("scores an image drawn magnified as drawn: it needs a higher quality than at the profile's resolution", async () => {
    const small = await resamplePixels(textured, 600, 400);
    // 600 x 400 px at 288 x 192 pt is 150 dpi (as drawn); at 576 x 384 pt it is 75 dpi, each pixel twice as large.
    const pdf = buildPdf([flateImage("Small", small)], [[{ image: "Small", x: 18, y: 400, ...AT_300_DPI }], [{ image: "Small", x: 18, y: 18, width: 576, height: 384 }]]);
    const atDpi = buildPdf([flateImage("Small", small)], [[{ image: "Small", x: 18, y: 400, ...AT_300_DPI }]]);
    const magnified = rewriteOf(await compressPdf(pdf, options({ profile: "ebook" })), 2);
    const plain = rewriteOf(await compressPdf(atDpi, options({ profile: "ebook" })), 1);
    expect(magnified?.dpi).toBeCloseTo(75, 3);
    expect(magnified?.quality ?? 0).toBeGreaterThan(plain?.quality ?? 100);
  });

  it("projects in analyze what compress does: the same images rewritten, the size within 10%, the risk of the floor", async () => {
    const analysis = await analyzePdf(twoImages, { password: null });
    const { ebook } = analysis.projection;
    expect(ebook.images_rewritten).toBe(floored.stats.images_rewritten);
    expect(Math.abs(Math.log(ebook.estimated_bytes / floored.bytes.byteLength))).toBeLessThan(0.1);
    expect(ebook.quality_risk).toBe("low");
  });
});
