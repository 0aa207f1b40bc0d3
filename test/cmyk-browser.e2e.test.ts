// Unprofiled CMYK JPEGs against the browser itself (npm start): headless Chromium decodes the
// source, and what the service makes of it (optimize, and a transform URL, both at the origin:
// the edge never decodes CMYK) must show the same picture, for APP14 transform 0 (CMYK),
// transform 2 (YCCK) and no APP14 marker.
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { ssim, type LumaImage } from "../origin/pdf/ssim.ts";
import { colourBands, unprofiledCmykJpeg, type Adobe } from "../origin/image/test-support/cmyk-jpegs.ts";
import { useChromium } from "./support/browser.ts";
import { activeKeyId, uploadFile } from "./support/edge-account.ts";

const edge = inject("edgeUrl");
const apiKey = inject("apiKey");
const auth = { Authorization: `Bearer ${apiKey}` };
const width = 320;
const height = 200;

function luma(rgba: ArrayLike<number>, channels: number): LumaImage {
  const data = new Float64Array(width * height);
  for (let p = 0; p < data.length; p++) {
    data[p] = 0.299 * (rgba[p * channels] ?? 0) + 0.587 * (rgba[p * channels + 1] ?? 0) + 0.114 * (rgba[p * channels + 2] ?? 0);
  }
  return { data, width, height };
}

const meanOf = (image: LumaImage) => Array.from(image.data).reduce((sum, v) => sum + v, 0) / image.data.length;

async function sharpLuma(bytes: Uint8Array): Promise<LumaImage> {
  const { data, info } = await sharp(bytes).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([width, height]);
  return luma(data, 3);
}

async function optimized(fileId: string): Promise<Uint8Array> {
  const res = await fetch(`${edge}/v1/image/optimize`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ source: { file_id: fileId }, options: { format: "png" } }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { url } = await res.json<{ url: string }>();
  return new Uint8Array(await (await fetch(url)).arrayBuffer());
}

async function transformed(fileId: string): Promise<Uint8Array> {
  const res = await fetch(`${edge}/v1/image/t/${await activeKeyId(edge, apiKey)}/f_png/${fileId}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

// The part of the DOM the page code uses (this project's types have no DOM library).
interface PageImage {
  src: string;
  naturalWidth: number;
  naturalHeight: number;
  decode(): Promise<void>;
}
interface PageCanvas {
  width: number;
  height: number;
  getContext(kind: "2d"): {
    drawImage(image: PageImage, x: number, y: number): void;
    getImageData(x: number, y: number, width: number, height: number): { data: ArrayLike<number> };
  };
}
interface PageDocument {
  createElement(tag: "img"): PageImage;
  createElement(tag: "canvas"): PageCanvas;
}

describe("unprofiled CMYK JPEGs, as Chromium shows them", () => {
  const chromium = useChromium();

  async function chromiumLuma(jpeg: Uint8Array): Promise<LumaImage> {
    const tab = await chromium.browser.newPage();
    try {
      const rgba = await tab.evaluate(async (src) => {
        const doc = (globalThis as unknown as { document: PageDocument }).document;
        const img = doc.createElement("img");
        img.src = src;
        await img.decode();
        const canvas = doc.createElement("canvas");
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const context = canvas.getContext("2d");
        context.drawImage(img, 0, 0);
        return Array.from(context.getImageData(0, 0, canvas.width, canvas.height).data);
      }, `data:image/jpeg;base64,${Buffer.from(jpeg).toString("base64")}`);
      expect(rgba.length).toBe(width * height * 4);
      return luma(rgba, 4);
    } finally {
      await tab.close();
    }
  }

  it.each(["cmyk", "ycck", "no-marker"] satisfies Adobe[])("optimize and transform match Chromium's decode, APP14 %s", async (adobe) => {
    const source = await unprofiledCmykJpeg(colourBands(width, height), width, height, adobe);
    const browserView = await chromiumLuma(source);
    // What libvips' built-in press profile made of it: the bar below must tell the two apart.
    expect(ssim(await sharpLuma(new Uint8Array(await sharp(source).png().toBuffer())), browserView)).toBeLessThan(0.95);

    const fileId = await uploadFile(edge, apiKey, source, { filename: "cmyk.jpg", contentType: "image/jpeg" });
    // Transform first: optimizing by file_id consumes the upload.
    for (const output of [await transformed(fileId), await optimized(fileId)]) {
      const ours = await sharpLuma(output);
      expect(Math.abs(meanOf(ours) - meanOf(browserView))).toBeLessThan(1);
      expect(ssim(ours, browserView)).toBeGreaterThan(0.99);
    }
  });
});
