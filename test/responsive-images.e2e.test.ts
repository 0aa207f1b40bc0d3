// The client's responsive helpers in a real browser against the running pair: headless Chromium
// loads a page whose <img> and <picture> attributes come from createImageUrls, at two viewport
// widths and at DPR 1 and 2. Each image must request exactly the candidate the srcset and sizes
// call for, decode at the size its descriptor declares, and f_auto must give AVIF or WebP.
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createImageUrls, createPixelPress, createSignedImageUrls } from "../clients/ts/server.ts";
import { imagesOnPage, useChromium, type ImageOnPage } from "./support/browser.ts";
import { activeKeyId } from "./support/edge-account.ts";
import { gradientJpeg } from "./fixtures/images.ts";

const edge = inject("edgeUrl");
const apiKey = inject("apiKey");
const SOURCE = { width: 1600, height: 1067 };

function attributes(record: Record<string, string | number | undefined>): string {
  return Object.entries(record)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}="${String(value).replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"`)
    .join(" ");
}

// srcset candidates as [url, descriptor value], in the order written.
function candidatesOf(srcset: string): [string, number][] {
  return srcset.split(", ").map((candidate) => {
    const [url = "", descriptor = ""] = candidate.split(" ");
    return [url, Number.parseFloat(descriptor)];
  });
}

// The HTML rule for these sets, with no geometric-mean slack needed: the smallest candidate whose
// density (descriptor over the slot's CSS width, or x) reaches the DPR, else the largest.
function expectedCandidate(srcset: string, slotCssWidth: number | undefined, dpr: number): [string, number] {
  const candidates = candidatesOf(srcset);
  const density = ([, value]: [string, number]) => (slotCssWidth === undefined ? value : value / slotCssWidth);
  return candidates.find((candidate) => density(candidate) >= dpr) ?? candidates.at(-1)!;
}

// The part of HTMLImageElement the probe uses (this project's types have no DOM library).
type LoadedImage = ImageOnPage & { decode(): Promise<void> };

describe("srcset and sizes from the client's helpers in a real browser", () => {
  const chromium = useChromium();
  let fileId: string;
  let keyId: string;

  beforeAll(async () => {
    const client = createPixelPress({ baseUrl: edge, apiKey });
    fileId = (await client.upload(await gradientJpeg(SOURCE, { low: 0, high: 255, blue: 128 }), { contentType: "image/jpeg", filename: "gradient.jpg" })).file_id;
    keyId = await activeKeyId(edge, apiKey);
  });

  it("requests the candidate each viewport and DPR calls for, and decodes it at its declared size", async () => {
    const urls = createImageUrls({ baseUrl: edge, keyId });

    // Full-width, w descriptors; 2400 is past the file's width, so the 1600 px image ends the set.
    const fluid = urls.imgAttributes(fileId, { widths: [320, 640, 960, 1280, 1600, 2400], sizes: "100vw", format: "auto", intrinsic: SOURCE });
    // A fixed 300 px slot, x descriptors.
    const fixed = urls.imgAttributes(fileId, { width: 300, format: "auto", intrinsic: SOURCE });
    const picture = urls.picture(fileId, { width: 200, height: 200, fit: "cover", format: "jpeg", intrinsic: SOURCE });
    expect(candidatesOf(fluid.srcset).map(([, w]) => w)).toEqual([320, 640, 960, 1280, 1600]);
    expect(fixed).toMatchObject({ width: 300, height: 200 });

    const html = [
      "<!doctype html><html><head><style>body{margin:0} img{display:block} #fluid{width:100vw;height:auto}</style></head><body>",
      `<img id="fluid" ${attributes({ ...fluid })}>`,
      `<img id="fixed" ${attributes({ ...fixed })}>`,
      `<picture>${picture.sources.map((source) => `<source ${attributes({ ...source })}>`).join("")}<img id="picture" ${attributes({ ...picture.img })}></picture>`,
      "</body></html>",
    ].join("");
    const pageUrl = await chromium.servePage(html);

    for (const viewport of [400, 1200]) {
      for (const dpr of [1, 2]) {
        const context = await chromium.browser.newContext({ viewport: { width: viewport, height: 900 }, deviceScaleFactor: dpr });
        const tab = await context.newPage();
        const requested: string[] = [];
        const contentTypes = new Map<string, string>();
        tab.on("request", (request) => {
          if (request.url().includes("/v1/image/t/")) requested.push(request.url());
        });
        tab.on("response", (response) => contentTypes.set(response.url(), response.headers()["content-type"] ?? ""));
        await tab.goto(pageUrl, { waitUntil: "load" });
        const loaded = await imagesOnPage(tab);
        const fetched = [...requested];
        // naturalWidth of a srcset image is divided by the candidate's density; the bytes' own
        // pixel size comes from decoding the chosen URL again without a srcset (from the cache).
        const decodedSizes = await tab.$$eval("img", (elements) =>
          Promise.all(
            elements.map(async (element) => {
              const probe = new (globalThis as unknown as { Image: new () => LoadedImage & { src: string } }).Image();
              probe.src = (element as unknown as LoadedImage).currentSrc;
              await probe.decode();
              return { id: (element as unknown as LoadedImage).id, width: probe.naturalWidth, height: probe.naturalHeight };
            }),
          ),
        );
        const pixels = (id: string) => decodedSizes.find((d) => d.id === id);
        const at = `viewport ${viewport}, DPR ${dpr}`;
        const image = (id: string) => loaded.find((l) => l.id === id)!;

        const [fluidUrl, fluidWidth] = expectedCandidate(fluid.srcset, viewport, dpr);
        const [fixedUrl, fixedDensity] = expectedCandidate(fixed.srcset, undefined, dpr);
        const [pictureUrl, pictureDensity] = expectedCandidate(picture.sources[0]!.srcset, undefined, dpr);
        expect(picture.sources[0]!.type).toBe("image/avif");
        // Each image fetched exactly the one candidate expected, nothing else from its set.
        expect(fetched.sort(), at).toEqual([fluidUrl, fixedUrl, pictureUrl].sort());
        expect(image("fluid").currentSrc, at).toBe(fluidUrl);

        // The w descriptor is the width the edge really sent, and x candidates are the declared size times x.
        expect(pixels("fluid"), at).toEqual({ id: "fluid", width: fluidWidth, height: Math.round((fluidWidth * SOURCE.height) / SOURCE.width) });
        expect(pixels("fixed"), at).toEqual({ id: "fixed", width: 300 * fixedDensity, height: 200 * fixedDensity });
        expect(pixels("picture"), at).toEqual({ id: "picture", width: 200 * pictureDensity, height: 200 * pictureDensity });
        // Laid out at the declared size; for x candidates the density-corrected natural size is it too.
        expect(image("fluid"), at).toMatchObject({ complete: true, clientWidth: viewport });
        expect(image("fixed"), at).toMatchObject({ complete: true, naturalWidth: 300, naturalHeight: 200, clientWidth: 300, clientHeight: 200 });
        expect(image("picture"), at).toMatchObject({ complete: true, naturalWidth: 200, naturalHeight: 200, clientWidth: 200, clientHeight: 200 });
        for (const url of [fluidUrl, fixedUrl]) expect(["image/avif", "image/webp"], `${at}: ${url}`).toContain(contentTypes.get(url));
        expect(contentTypes.get(pictureUrl), at).toBe("image/avif");
        await context.close();
      }
    }
  });

  it("serves the server helpers' signed URLs and refuses one signed with another secret", async () => {
    const issued = await fetch(`${edge}/v1/keys/${keyId}/signing-secret`, { method: "POST", headers: { Authorization: `Bearer ${apiKey}` } });
    expect(issued.status).toBe(200);
    const { signing_secret } = await issued.json<{ signing_secret: string }>();
    const signed = createSignedImageUrls({ baseUrl: edge, keyId, signingSecret: signing_secret });
    const img = await signed.imgAttributes(fileId, { width: 120, format: "webp", intrinsic: SOURCE });
    const candidates = candidatesOf(img.srcset);
    expect(candidates.map(([, density]) => density)).toEqual([1, 2]);
    for (const [url, density] of candidates) {
      expect(url).toMatch(/,s_[A-Za-z0-9_-]{22}\//);
      const res = await fetch(url, { headers: { Accept: "image/webp" } });
      expect(res.status, url).toBe(200);
      const { format, width, height } = await sharp(new Uint8Array(await res.arrayBuffer())).metadata();
      expect({ format, width, height }).toEqual({ format: "webp", width: 120 * density, height: 80 * density });
    }
    const forged = await createSignedImageUrls({ baseUrl: edge, keyId, signingSecret: "not the key's secret" }).transformUrl(fileId, { width: 120, format: "webp" });
    const refused = await fetch(forged);
    expect(refused.status).toBe(403);
    expect((await refused.json<{ type: string }>()).type).toContain("transform_signature_invalid");
  });
});
