// The placeholder in a real browser against the running pair: the page's <img> carries the
// client's placeholderStyle (the LQIP data URL from GET /v1/files/{id}/placeholder) and the
// srcset from createImageUrls. The transform request is held at the network layer until the test
// has looked at the page, so what is on screen then can only be the placeholder; once released,
// the full image replaces it at the same box.
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createImageUrls, createPixelPress, placeholderFor, placeholderStyle, type ImagePlaceholder } from "../clients/ts/server.ts";
import { imagesOnPage, useChromium } from "./support/browser.ts";
import { activeKeyId } from "./support/edge-account.ts";
import { gradientJpeg } from "./fixtures/images.ts";

const edge = inject("edgeUrl");
const apiKey = inject("apiKey");
const SOURCE = { width: 1200, height: 800 };
const SLOT = { width: 300, height: 200 };

function attributes(record: Record<string, string | number | undefined>): string {
  return Object.entries(record)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}="${String(value).replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"`)
    .join(" ");
}

/** Mean RGB of a screenshot's left and right quarters and of all of it. */
async function quarterMeans(png: Buffer): Promise<{ left: number[]; right: number[]; all: number[] }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const mean = (from: number, to: number) => {
    const sums = [0, 0, 0];
    for (let y = 0; y < info.height; y++) for (let x = from; x < to; x++) for (let c = 0; c < 3; c++) sums[c]! += data[(y * info.width + x) * 3 + c]!;
    return sums.map((sum) => sum / ((to - from) * info.height));
  };
  const quarter = Math.floor(info.width / 4);
  return { left: mean(0, quarter), right: mean(info.width - quarter, info.width), all: mean(0, info.width) };
}

describe("a placeholder shows before the full image arrives", () => {
  const chromium = useChromium();
  let fileId: string;
  let keyId: string;
  let placeholder: ImagePlaceholder;

  beforeAll(async () => {
    const client = createPixelPress({ baseUrl: edge, apiKey });
    fileId = (await client.upload(await gradientJpeg(SOURCE, { low: 20, high: 235, blue: 90 }), { contentType: "image/jpeg", filename: "gradient.jpg" })).file_id;
    keyId = await activeKeyId(edge, apiKey);
    placeholder = await placeholderFor(client, fileId);
  });

  it("paints the LQIP while the transform is held, then the full image in the same box", async () => {
    expect(placeholder).toMatchObject(SOURCE);
    const img = createImageUrls({ baseUrl: edge, keyId }).imgAttributes(fileId, { width: SLOT.width, format: "auto", intrinsic: SOURCE });
    expect(img).toMatchObject(SLOT);
    const html = `<!doctype html><html><head><style>body{margin:0;background:#fff} img{display:block}</style></head><body><img id="photo" ${attributes({ ...img, style: placeholderStyle(placeholder) })}></body></html>`;
    const pageUrl = await chromium.servePage(html);

    for (const dpr of [1, 2]) {
      const context = await chromium.browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: dpr });
      const tab = await context.newPage();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let intercepted!: () => void;
      const requested = new Promise<void>((resolve) => (intercepted = resolve));
      const transformUrls: string[] = [];
      await tab.route("**/v1/image/t/**", async (route) => {
        transformUrls.push(route.request().url());
        intercepted();
        await held;
        await route.continue();
      });
      await tab.goto(pageUrl, { waitUntil: "domcontentloaded" });
      await requested;
      // The data URL decodes asynchronously: wait for it, then for two frames so it has painted.
      await tab.evaluate(async (lqip) => {
        const g = globalThis as unknown as { Image: new () => { src: string; decode(): Promise<void> }; requestAnimationFrame(cb: () => void): void };
        const probe = new g.Image();
        probe.src = lqip;
        await probe.decode();
        for (let frame = 0; frame < 2; frame++) await new Promise<void>((resolve) => g.requestAnimationFrame(() => resolve()));
      }, placeholder.lqip);

      const at = `DPR ${dpr}`;
      const before = await tab.$eval("#photo", (element) => {
        const image = element as unknown as { complete: boolean; naturalWidth: number; clientWidth: number; clientHeight: number };
        return { complete: image.complete, naturalWidth: image.naturalWidth, clientWidth: image.clientWidth, clientHeight: image.clientHeight };
      });
      // Not loaded, yet the box is already the image's: the layout does not shift when it arrives.
      expect(before, at).toEqual({ complete: false, naturalWidth: 0, clientWidth: SLOT.width, clientHeight: SLOT.height });
      const preview = await quarterMeans(await tab.screenshot({ clip: { x: 0, y: 0, ...SLOT } }));
      // The preview, not the white page: darker than white everywhere, and red rising left to right.
      for (const channel of preview.all) expect(channel, at).toBeLessThan(200);
      expect(preview.right[0]! - preview.left[0]!, at).toBeGreaterThan(60);
      expect(Math.abs(preview.right[1]! - preview.left[1]!), at).toBeLessThan(30);

      release();
      const [loaded] = await imagesOnPage(tab);
      expect(loaded, at).toMatchObject({ id: "photo", complete: true, naturalWidth: SLOT.width, naturalHeight: SLOT.height, clientWidth: SLOT.width, clientHeight: SLOT.height });
      expect(transformUrls, at).toEqual([loaded!.currentSrc]);
      const full = await quarterMeans(await tab.screenshot({ clip: { x: 0, y: 0, ...SLOT } }));
      // The full image agrees with its preview on the whole and has the same gradient.
      full.all.forEach((channel, i) => expect(Math.abs(channel - preview.all[i]!), at).toBeLessThan(20));
      expect(full.right[0]! - full.left[0]!, at).toBeGreaterThan(60);
      await context.close();
    }
  });
});
