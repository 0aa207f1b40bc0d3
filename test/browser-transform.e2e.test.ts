// A real browser against the running pair (npm start): headless Chromium loads a page from a
// loopback server whose <img> tags point at transform URLs, and each image must decode at the
// requested size; f_auto must hand Chromium AVIF or WebP.
import { describe, expect, inject, it } from "vitest";
import { generatedFile, type GeneratedFileName } from "./fixtures/generated-files.ts";
import { imagesOnPage, useChromium } from "./support/browser.ts";
import { activeKeyId, uploadFile } from "./support/edge-account.ts";

const edge = inject("edgeUrl");
const apiKey = inject("apiKey");

async function upload(name: GeneratedFileName, contentType: string): Promise<string> {
  return uploadFile(edge, apiKey, await generatedFile(name), { filename: name, contentType });
}

describe("transform URLs in a real browser", () => {
  const chromium = useChromium();

  it("decodes every <img> at the requested size and gets AVIF or WebP for f_auto", async () => {
    const key = await activeKeyId(edge, apiKey);
    const [photoPng, landscape, alpha, portrait] = await Promise.all([
      upload("photo.png", "image/png"),
      upload("landscape-1.jpg", "image/jpeg"),
      upload("rgba.png", "image/png"),
      upload("portrait-6.jpg", "image/jpeg"),
    ]);
    const images = [
      { id: "edge-auto", transform: "w_320,f_auto", file: photoPng, width: 320, height: 213 },
      { id: "edge-cover", transform: "w_200,h_200,fit_cover,f_webp", file: photoPng, width: 200, height: 200 },
      // Large originals: small outputs from the mezzanine at the edge, large ones at the origin.
      { id: "mezzanine-auto", transform: "f_auto,w_600", file: landscape, width: 600, height: 400 },
      { id: "mezzanine-upright", transform: "h_300,f_webp", file: portrait, width: 200, height: 300 },
      { id: "origin-large", transform: "w_1500,f_auto", file: landscape, width: 1500, height: 1000 },
      { id: "origin-attention", transform: "w_150,h_300,fit_cover,g_auto,f_auto", file: landscape, width: 150, height: 300 },
      { id: "alpha-dpr", transform: "w_16,dpr_2,f_png", file: alpha, width: 32, height: 32 },
      { id: "jpeg-blur", transform: "w_100,bl_2,f_jpg", file: photoPng, width: 100, height: 66 },
    ];
    const src = (i: (typeof images)[number]) => `${edge}/v1/image/t/${key}/${i.transform}/${i.file}`;
    const pageUrl = await chromium.servePage(
      `<!doctype html><html><body>${images.map((i) => `<img id="${i.id}" src="${src(i)}">`).join("")}</body></html>`,
    );

    const tab = await chromium.browser.newPage();
    const contentTypes = new Map<string, string>();
    tab.on("response", (res) => contentTypes.set(res.url(), res.headers()["content-type"] ?? ""));
    await tab.goto(pageUrl, { waitUntil: "load" });
    const decoded = await imagesOnPage(tab);
    for (const image of images) {
      const { id, complete, naturalWidth, naturalHeight } = decoded.find((d) => d.id === image.id) ?? {};
      expect({ id, complete, width: naturalWidth, height: naturalHeight }, image.id).toEqual({ id: image.id, complete: true, width: image.width, height: image.height });
    }
    for (const image of images.filter((i) => i.transform.includes("f_auto"))) {
      expect(["image/avif", "image/webp"], image.id).toContain(contentTypes.get(src(image)));
    }
    const byId = (id: string) => images.find((i) => i.id === id)!;
    expect(contentTypes.get(src(byId("alpha-dpr")))).toBe("image/png");
    expect(contentTypes.get(src(byId("jpeg-blur")))).toBe("image/jpeg");
  });
});
