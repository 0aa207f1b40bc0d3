// The console at / in headless Chromium against the running pair, offline: a person pastes a key,
// drops a JPEG and compares, reads the usage chart and makes a key; nothing leaves the machine,
// the page logs no error, and axe finds no serious or critical accessibility violation.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { problemCatalogue } from "../contracts/problems/catalogue.ts";
import { formatCost } from "../console/ui/format.ts";
import { formatByteSize } from "../contracts/byte-size.ts";
import { compressedPdfName } from "../contracts/derived-file-name.ts";
import { orientedPhotoJpeg, PHOTO_SIZE } from "./fixtures/images.ts";
import { FOUR_DPI_PLACEMENTS, imagesAtFourDpisPdf } from "./fixtures/pdfs.ts";
import { DPI_BANDS } from "../console/pdf/dpi-band.ts";
import { COMPARE_WIDTH, THUMBNAIL_WIDTH } from "../console/pdf/page-picture-plan.ts";
import sharp from "sharp";
import { createImageUrls } from "../clients/ts/images/image-urls.ts";
import { createSignedImageUrls } from "../clients/ts/server.ts";
import { imgSnippet, pictureSnippet } from "../console/urls/snippets.ts";
import { activeKeyId } from "./support/edge-account.ts";
import { useChromium } from "./support/browser.ts";

const edge = inject("edgeUrl");
const apiKey = inject("apiKey");
const chromium = useChromium();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const RESULT_WIDTH = 640;
/** Past the inline (base64) limit of 25 MiB, so the console must upload it first. */
const LARGE_SIDE = { width: 3200, height: 2800 };
const PRESIGNED_PUT = "/cdn-cgi/local/r2/s3/";

let context: BrowserContext;
let page: Page;
const leftTheMachine: string[] = [];
const consoleErrors: string[] = [];
const requested: string[] = [];

interface OptimizeReply {
  width: number;
  height: number;
  stats: { original_bytes: number; output_bytes: number };
  billing: { charged_micros: number };
}

// The parts of the page's globals the tests read (this project's types have no DOM library).
interface AxePage {
  axe?: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }> };
}
interface ImageElement {
  naturalWidth: number;
  naturalHeight: number;
  clientWidth: number;
  clientHeight: number;
  decode(): Promise<void>;
}
interface StyledElement {
  style: { clipPath: string };
  textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
}
interface PageWindow {
  getComputedStyle(element: unknown): { borderTopColor: string; color: string };
}

/** `#047857` as getComputedStyle writes it. */
function cssRgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/** Band of each DPI the fixture draws at, as a person reads the legend: 300 print, 150 zoom, 108 screen, 50 soft. */
const FIXTURE_BANDS: Record<number, string> = { 300: "print", 150: "zoom", 108: "screen", 50: "soft" };

function callApi(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(`${edge}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Random pixels as an uncompressed PNG: no codec shrinks it, so its size is known before it is made. */
function noisePng(size: { width: number; height: number }): Promise<Buffer> {
  const pixels = Buffer.alloc(size.width * size.height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { ...size, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

async function seriousAccessibilityViolations(tab: Page): Promise<string[]> {
  // Evaluated by the browser's tooling, not as an inline script the page's CSP would refuse.
  if (!(await tab.evaluate(() => (globalThis as AxePage).axe !== undefined))) await tab.evaluate(AXE_SOURCE);
  const violations = await tab.evaluate(async () => (await (globalThis as AxePage).axe!.run()).violations);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

beforeAll(async () => {
  context = await chromium.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`${edge}/`)) return route.continue();
    leftTheMachine.push(url);
    return route.abort();
  });
  page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  page.on("request", (request) => requested.push(`${request.method()} ${request.url()}`));
  const response = await page.goto(`${edge}/`);
  expect(response?.status()).toBe(200);
});

describe("the pages' security headers", () => {
  it("serves the console, its files and icon, /docs and the problem pages with a CSP, no framing and nosniff", async () => {
    for (const path of ["/", "/console/console.js", "/console/console.css", "/favicon.ico", "/docs", "/problems"]) {
      const res = await fetch(`${edge}${path}`);
      expect(res.status, path).toBe(200);
      const policy = res.headers.get("Content-Security-Policy") ?? "";
      expect(policy, path).toMatch(/(^|; )script-src 'self'( 'nonce-[\w-]+')?(;|$)/);
      expect(policy, path).toMatch(/(^|; )connect-src 'self'[^;]*(;|$)/);
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("X-Frame-Options"), path).toBe("DENY");
      expect(res.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
    }
    // The console's page is all files: no inline script, so its policy needs no nonce.
    expect((await fetch(`${edge}/`)).headers.get("Content-Security-Policy")).toContain("script-src 'self';");
  });

  it("answers /favicon.ico with an icon a browser decodes", async () => {
    const res = await fetch(`${edge}/favicon.ico`);
    expect(res.status).toBe(200);
    const ico = Buffer.from(await res.arrayBuffer());
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    const png = ico.subarray(ico.readUInt32LE(18), ico.readUInt32LE(18) + ico.readUInt32LE(14));
    expect(await sharp(png).metadata()).toMatchObject({ format: "png", width: 32, height: 32 });
  });
});

describe("the console at /", () => {
  it("checks a pasted key before taking it, and shows the service's 401 for a wrong one", async () => {
    const errorsBefore = consoleErrors.length;
    const checked = page.waitForResponse((response) => response.url() === `${edge}/v1/account`);
    await page.getByLabel("API key").fill(`${apiKey.slice(0, -4)}xxxx`);
    await page.getByRole("button", { name: "Use key" }).click();
    expect((await checked).status()).toBe(401);
    const alert = page.locator(".key-refused").getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toContain(problemCatalogue.unauthorized.title);
    expect(await page.getByText(/^Using key/).count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    // Chromium logs the refused check itself; the page adds nothing of its own.
    expect(consoleErrors.splice(errorsBefore)).toEqual(["Failed to load resource: the server responded with a status of 401 (Unauthorized)"]);
  });

  it("keeps a pasted key in sessionStorage only: not in the URL, not in a cookie", async () => {
    await page.getByLabel("API key").fill(apiKey);
    await page.getByRole("button", { name: "Use key" }).click();
    await page.getByText(`Using key ${apiKey.slice(0, 12)}`).waitFor();
    expect(await page.evaluate(() => {
      // The page's storage; this project has no DOM types, so its values are read as unknown.
      const values: unknown[] = Object.values(sessionStorage);
      return values;
    })).toEqual([apiKey]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await context.cookies()).toEqual([]);
    expect(page.url()).toBe(`${edge}/`);
  });

  it("shows a dropped JPEG's result decoded at the size asked, beside its original, with its bytes", async () => {
    await page.getByLabel("Width (px)").fill(String(RESULT_WIDTH));
    const jpeg = Buffer.from(await orientedPhotoJpeg("landscape", 0)).toString("base64");
    const dropped = await page.evaluateHandle((base64) => {
      const { DataTransfer: Transfer } = globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } };
      const transfer = new Transfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], "photo.jpg", { type: "image/jpeg" }));
      return transfer;
    }, jpeg);
    const answered = page.waitForResponse((response) => response.url() === `${edge}/v1/image/optimize`);
    await page.dispatchEvent(".drop-zone", "drop", { dataTransfer: dropped });
    await page.getByRole("status").filter({ hasText: "Optimizing photo.jpg" }).waitFor();
    const response = await answered;
    expect(response.request().headers().authorization).toBe(`Bearer ${apiKey}`);
    expect(response.status()).toBe(200);
    const reply = (await response.json()) as OptimizeReply;
    const { width, height } = PHOTO_SIZE.landscape;
    expect([reply.width, reply.height]).toEqual([RESULT_WIDTH, Math.round((height * RESULT_WIDTH) / width)]);

    const result = page.getByRole("img", { name: "Result of photo.jpg" });
    const original = page.getByRole("img", { name: "Original of photo.jpg" });
    await result.waitFor();
    const decoded = (locator: typeof result) =>
      locator.evaluate(async (element) => {
        const img = element as unknown as ImageElement;
        await img.decode();
        return { width: img.naturalWidth, height: img.naturalHeight, shownWidth: img.clientWidth, shownHeight: img.clientHeight };
      });
    const [after, before] = [await decoded(result), await decoded(original)];
    expect([after.width, after.height]).toEqual([reply.width, reply.height]);
    expect([before.width, before.height]).toEqual([width, height]);
    // Drawn in one frame at the same size, the original under the result.
    expect([before.shownWidth, before.shownHeight]).toEqual([after.shownWidth, after.shownHeight]);
    const facts = await page.locator(".image-item .facts").innerText();
    expect(facts).toContain(formatByteSize(reply.stats.output_bytes));
    expect(facts).toContain(formatByteSize(reply.stats.original_bytes));
    expect(facts).toContain(`${reply.width} × ${reply.height}`);
    const download = page.getByRole("link", { name: "photo.jpg" });
    expect(await download.getAttribute("download")).toBe("photo.jpg");
    expect(await download.getAttribute("href")).toMatch(/^blob:/);
  });

  it("moves the split with the keyboard and shows result pixels 1:1 when asked", async () => {
    const result = page.getByRole("img", { name: "Result of photo.jpg" });
    const clip = () => result.evaluate((element) => (element as unknown as StyledElement).style.clipPath);
    expect(await clip()).toBe("inset(0px 0px 0px 50%)");
    const split = page.getByLabel("Split");
    await split.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await clip()).toBe("inset(0px 0px 0px 52%)");
    await page.keyboard.press("Home");
    expect(await clip()).toBe("inset(0px 0px 0px 0%)");
    await page.getByLabel("Zoom").selectOption("1");
    const shown = await result.evaluate((element) => (element as unknown as StyledElement).getBoundingClientRect().width * (globalThis as unknown as { devicePixelRatio: number }).devicePixelRatio);
    expect(shown).toBe(RESULT_WIDTH);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  it("draws the usage chart's bars from the account's real usage", async () => {
    await page.getByRole("button", { name: "Account" }).click();
    const today = new Date().toISOString().slice(0, 10);
    const usage = await (
      await fetch(`${edge}/v1/usage?from=${today}&to=${today}&group_by=day_operation`, { headers: { Authorization: `Bearer ${apiKey}` } })
    ).json<{ data: { day: string; operation: string; count: number; micros: number }[] }>();
    const optimized = usage.data.find((row) => row.operation === "image.optimize")!;
    expect(optimized.count).toBeGreaterThanOrEqual(1);
    const countBar = page.locator(`#usage-count rect[data-day="${today}"][data-operation="image.optimize"]`);
    await countBar.waitFor();
    expect(await countBar.locator("title").textContent()).toBe(`${today} image.optimize: ${optimized.count}`);
    expect(Number(await countBar.getAttribute("height"))).toBeGreaterThan(0);
    const spendBars = await page.locator(`#usage-spend rect[data-day="${today}"]`).count();
    expect(spendBars).toBe(usage.data.filter((row) => row.micros > 0).length);
    await page.getByText("Usage as a table").click();
    expect(await page.locator(".usage-table").innerText()).toContain(`${today}\timage.optimize\t${optimized.count}`);
  });

  it("creates a key with a scope that works for an API call, and revokes it", async () => {
    await page.getByLabel("Name").fill("console e2e");
    await page.getByRole("checkbox", { name: "images" }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = await page.locator("#new-key-secret").inputValue();
    expect(secret).toMatch(/^ak_live_/);
    const call = (path: string, key: string) => fetch(`${edge}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    const transform = await fetch(`${edge}/v1/image/optimize`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ source: { base64: Buffer.from(await orientedPhotoJpeg("portrait", 0)).toString("base64") }, options: { width: 64, output: "base64" } }),
    });
    expect(transform.status).toBe(200);
    expect((await call("/v1/account", secret)).status).toBe(403);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Revoking asks first, in red; only the second click revokes.
    const revoke = page.getByRole("button", { name: "Revoke console e2e" });
    expect(await revoke.evaluate((element) => (globalThis as unknown as PageWindow).getComputedStyle(element).color)).toBe(cssRgb("#b91c1c"));
    await revoke.click();
    expect((await call("/v1/keys", secret)).status).not.toBe(401);
    await page.getByRole("button", { name: "Revoke console e2e for good" }).click();
    await page.getByRole("row", { name: /console e2e/ }).getByText(/^revoked /).waitFor();
    expect((await call("/v1/keys", secret)).status).toBe(401);

    // A key in use that the service stops accepting: its calls' 401 shows at the key, not nowhere.
    const errorsBefore = consoleErrors.length;
    await page.evaluate((key) => sessionStorage.setItem("pixelpress.console.api-key", key), secret);
    await page.reload();
    await page.getByRole("button", { name: "Account", exact: true }).click();
    const refused = page.locator(".key-refused");
    await refused.getByRole("alert").waitFor();
    expect(await refused.innerText()).toContain(problemCatalogue.unauthorized.title);
    expect(await refused.innerText()).toContain("no longer accepts this key");
    await page.evaluate((key) => sessionStorage.setItem("pixelpress.console.api-key", key), apiKey);
    await page.reload();
    expect(new Set(consoleErrors.splice(errorsBefore))).toEqual(new Set(["Failed to load resource: the server responded with a status of 401 (Unauthorized)"]));
  });

  it("analyzes a dropped PDF into a table, its pages with every image's box coloured by DPI, and a chart of every profile, then compresses it and compares a page", async () => {
    // Dropped on the Images section, a PDF goes to the PDFs section: no optimize call, no pg_ error.
    await page.getByRole("button", { name: "Images", exact: true }).click();
    const optimizeCalls = () => requested.filter((request) => request === `POST ${edge}/v1/image/optimize`).length;
    const optimizedBefore = optimizeCalls();
    // PDF work runs in the origin's worker threads; on a loaded machine it takes tens of seconds.
    const analyzed = page.waitForResponse((response) => response.url() === `${edge}/v1/pdf/analyze`, { timeout: 60_000 });
    await page.getByLabel(/Drop images here/).setInputFiles({ name: "dpis.pdf", mimeType: "application/pdf", buffer: Buffer.from(await imagesAtFourDpisPdf()) });
    await expect.poll(() => page.getByRole("button", { name: "PDFs", exact: true }).getAttribute("aria-current")).toBe("page");
    const analyzeReply = await analyzed;
    expect(optimizeCalls()).toBe(optimizedBefore);
    // Stored with its name, so the Files list and what is made of it say dpis.
    const storedId = (JSON.parse(analyzeReply.request().postData() ?? "{}") as { source: { file_id: string } }).source.file_id;
    expect((await (await callApi("GET", `/v1/files/${storedId}`)).json<{ filename: string }>()).filename).toBe("dpis.pdf");
    const analysis = (await analyzeReply.json()) as {
      images: { width: number; height: number; placements: { page: number; effective_dpi: number; rect_pt: { x: number; y: number; width: number; height: number } }[] }[];
      projection: Record<string, { estimated_bytes: number; quality_risk: string }>;
    };
    await page.getByRole("table", { name: /Images/ }).waitFor();
    const image = analysis.images[0]!;
    expect(await page.getByRole("table", { name: /Images/ }).innerText()).toContain(`${image.width} × ${image.height}`);
    for (const [profile, projection] of Object.entries(analysis.projection)) {
      const row = page.locator(`.profile-row[data-profile="${profile}"]`);
      expect(await row.innerText()).toContain(`${formatByteSize(projection.estimated_bytes)}`);
      expect(await row.innerText()).toContain(`quality risk ${projection.quality_risk}`);
    }

    // Each page is the service's own picture of it (pg_), with a box per placement where the fixture drew it, in its band's colour.
    const placements = analysis.images.flatMap((image) => image.placements);
    expect(placements.map((placement) => Math.round(placement.effective_dpi)).sort()).toEqual(FOUR_DPI_PLACEMENTS.map((placement) => placement.dpi).sort());
    const [pageWidth, pageHeight] = [612, 792];
    for (const pageNumber of [1, 2]) {
      const thumb = page.locator(`.page-thumb[data-page="${pageNumber}"]`);
      await thumb.scrollIntoViewIfNeeded();
      const picture = thumb.getByRole("img", { name: `Page ${pageNumber}` });
      const decoded = await picture.evaluate(async (element) => {
        const img = element as unknown as ImageElement;
        await img.decode();
        return img.naturalWidth;
      });
      expect(decoded).toBe(THUMBNAIL_WIDTH);
      const sheet = await thumb.locator(".page-sheet").evaluate((element) => (element as unknown as StyledElement).getBoundingClientRect());
      const boxes = await thumb.locator(".image-box").evaluateAll((elements) =>
        elements.map((element) => {
          const box = element as unknown as StyledElement;
          return {
            band: box.getAttribute("data-dpi-band"),
            colour: (globalThis as unknown as PageWindow).getComputedStyle(element).borderTopColor,
            rect: box.getBoundingClientRect(),
            badge: box.textContent,
          };
        }),
      );
      const expected = FOUR_DPI_PLACEMENTS.filter((placement) => placement.page === pageNumber);
      expect(boxes).toHaveLength(expected.length);
      for (const { dpi, box } of expected) {
        const band = DPI_BANDS.find((candidate) => candidate.id === FIXTURE_BANDS[dpi])!;
        const drawn = boxes.find((candidate) => candidate.badge === String(dpi));
        expect(drawn, `the ${dpi} dpi box on page ${pageNumber}`).toBeDefined();
        expect(drawn!.band).toBe(band.id);
        expect(drawn!.colour).toBe(cssRgb(band.colour));
        // Where the fixture placed it, as shares of the page: within a CSS pixel of the thumbnail.
        const scale = sheet.width / pageWidth;
        expect(Math.abs(drawn!.rect.left - sheet.left - box.x * scale)).toBeLessThanOrEqual(1.5);
        expect(Math.abs(drawn!.rect.top - sheet.top - box.y * (sheet.height / pageHeight))).toBeLessThanOrEqual(1.5);
        expect(Math.abs(drawn!.rect.width - box.width * scale)).toBeLessThanOrEqual(1.5);
      }
    }
    expect(new Set((await page.locator(".page-thumb .image-box").evaluateAll((elements) => elements.map((element) => (element as unknown as StyledElement).getAttribute("data-dpi-band"))))).size).toBe(4);

    await page.getByLabel("Profile").selectOption("screen");
    const compressed = page.waitForResponse((response) => response.url() === `${edge}/v1/pdf/compress`, { timeout: 100_000 });
    await page.getByRole("button", { name: /^Compress/ }).click();
    const result = (await (await compressed).json()) as { file_id: string; stats: { original_bytes: number; output_bytes: number; profile: string } };
    expect(result.stats.profile).toBe("screen");
    // One name for the result: the download, the stored file (the Files list) and the CLI's.
    const resultName = compressedPdfName("dpis.pdf");
    expect(resultName).toBe("dpis.compressed.pdf");
    expect(await page.locator(".compressed").getByRole("link", { name: resultName }).getAttribute("download")).toBe(resultName);
    expect((await (await callApi("GET", `/v1/files/${result.file_id}`)).json<{ filename: string }>()).filename).toBe(resultName);
    await page.locator(".pdf-after").waitFor();
    expect(await page.locator(".pdf-after").innerText()).toBe(formatByteSize(result.stats.output_bytes));
    expect(await page.locator(".compressed").innerText()).toContain(formatByteSize(result.stats.original_bytes));

    // Page 2 before and after, both drawn by the service: from the original and from the compressed file.
    await page.getByLabel(/Page to compare/).selectOption("2");
    const original = page.getByRole("img", { name: "Original of Page 2" });
    const compressedPage = page.getByRole("img", { name: "Result of Page 2" });
    await compressedPage.waitFor({ timeout: 60_000 });
    const widths = await Promise.all(
      [original, compressedPage].map((picture) =>
        picture.evaluate(async (element) => {
          const img = element as unknown as ImageElement & { src: string };
          await img.decode();
          return { width: img.naturalWidth, src: img.src };
        }),
      ),
    );
    expect(widths.map((picture) => picture.width)).toEqual([COMPARE_WIDTH, COMPARE_WIDTH]);
    expect(widths[0]!.src).toContain(`pg_2,w_${COMPARE_WIDTH}`);
    expect(widths[1]!.src).toContain(`pg_2,w_${COMPARE_WIDTH}`);
    expect(widths[0]!.src).not.toBe(widths[1]!.src);
    // "Fit" shows the whole portrait page: the frame does not scroll.
    expect(await page.getByLabel("Zoom").inputValue()).toBe("fit");
    const frame = await page.locator(".page-compare .compare-frame").evaluate((element) => {
      const box = element as unknown as { scrollHeight: number; clientHeight: number; scrollWidth: number; clientWidth: number };
      return { scrollHeight: box.scrollHeight, clientHeight: box.clientHeight, scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
    });
    expect(frame.scrollHeight).toBeLessThanOrEqual(frame.clientHeight);
    expect(frame.scrollWidth).toBeLessThanOrEqual(frame.clientWidth);
    // And the frame is the page's own size: no empty band beside it.
    const stage = await page.locator(".page-compare .compare-stage").evaluate((element) => (element as unknown as StyledElement).getBoundingClientRect());
    expect(Math.abs(stage.width - frame.clientWidth)).toBeLessThanOrEqual(1);
    expect(Math.abs(stage.height - frame.clientHeight)).toBeLessThanOrEqual(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }, 240_000);

  it("counts the month's free calls as calls, not charges", async () => {
    await page.getByRole("button", { name: "Account", exact: true }).click();
    const line = page.locator("#month-usage");
    await line.waitFor();
    expect(await line.innerText()).toMatch(/^\d+ calls \(\d+ free: [^)]*pdf\.analyze[^)]*\), \$/);
    expect(await line.innerText()).not.toContain("charge");
  });

  it("shows a TIFF the browser cannot decode through a lossless preview from the service, on request", async () => {
    await page.getByRole("button", { name: "Images" }).click();
    await page.getByLabel("Width (px)").fill("");
    const tiff = await sharp(Buffer.from(await orientedPhotoJpeg("portrait", 0))).resize(300).tiff({ compression: "none" }).toBuffer();
    await page.getByLabel(/Drop images here/).setInputFiles({ name: "scan.tiff", mimeType: "image/tiff", buffer: tiff });
    await page.getByRole("img", { name: "Result of scan.tiff" }).waitFor();
    const offer = page.getByRole("button", { name: /Show a lossless preview/ });
    await offer.waitFor();
    const previewed = page.waitForResponse((response) => response.url() === `${edge}/v1/image/optimize`);
    await offer.click();
    const preview = (await (await previewed).json()) as { format: string; width: number; height: number; billing: { charged_micros: number } };
    expect(preview.format).toBe("png");
    const original = page.getByRole("img", { name: "Original of scan.tiff" });
    await original.waitFor();
    const size = await original.evaluate(async (element) => {
      const img = element as unknown as ImageElement;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    });
    expect(size).toEqual([preview.width, preview.height]);
    expect(await page.getByText(/lossless PNG preview from the service/).innerText()).toContain(`charged ${formatCost(preview.billing.charged_micros)}`);
  });

  it("builds transform URLs and srcset snippets for an uploaded file with the client's builders, and shows the picture", async () => {
    await page.getByRole("button", { name: "URLs" }).click();
    const keyId = await activeKeyId(edge, apiKey);
    await expect.poll(() => page.getByLabel("Key id").inputValue(), { timeout: 20_000 }).toBe(keyId);
    await page.getByLabel("Or upload an image").setInputFiles({ name: "upload.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await orientedPhotoJpeg("landscape", 0)) });
    await expect.poll(() => page.getByLabel("File id").inputValue(), { timeout: 30_000 }).toMatch(/^file_/);
    const fileId = await page.getByLabel("File id").inputValue();
    await page.getByLabel("Width", { exact: true }).fill("400");
    await page.getByLabel("srcset widths").fill("400, 800");
    const urls = createImageUrls({ baseUrl: edge, keyId });
    expect(await page.getByLabel("Transform URL").inputValue()).toBe(urls.transformUrl(fileId, { width: 400, format: "auto" }));
    expect(await page.getByLabel("<img srcset>").inputValue()).toBe(imgSnippet(urls.imgAttributes(fileId, { width: 400, format: "auto", widths: [400, 800] }), ""));
    expect(await page.getByLabel("<picture>").inputValue()).toBe(pictureSnippet(urls.picture(fileId, { width: 400, format: "auto", widths: [400, 800] }), ""));
    await page.getByRole("checkbox", { name: /Show the picture/ }).check();
    const picture = page.getByRole("img", { name: "The transform URL's picture" });
    const decoded = await picture.evaluate(async (element) => {
      const img = element as unknown as ImageElement;
      await img.decode();
      return img.naturalWidth;
    });
    expect(decoded).toBe(400);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  it("uploads an image past the inline limit through a presigned upload with its progress, then optimizes it by file id", async () => {
    await page.getByRole("button", { name: "Images" }).click();
    await page.getByLabel("Width (px)").fill(String(RESULT_WIDTH));
    const png = await noisePng(LARGE_SIDE);
    expect(png.length).toBeGreaterThan(25 * 1024 * 1024);
    // The PUT is held a moment, so the progress the page shows while it runs can be read.
    await page.route(`**${PRESIGNED_PUT}**`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    const optimized = page.waitForResponse((response) => response.url() === `${edge}/v1/image/optimize`, { timeout: 120_000 });
    await page.getByLabel(/Drop images here/).setInputFiles({ name: "large.png", mimeType: "image/png", buffer: png });
    const uploading = page.getByRole("status").filter({ hasText: "Uploading large.png" });
    await uploading.waitFor();
    expect(await uploading.locator("progress").getAttribute("max")).toBe("1");
    const response = await optimized;
    await page.unroute(`**${PRESIGNED_PUT}**`);
    const body = JSON.parse(response.request().postData() ?? "{}") as { source: { file_id?: string; base64?: string } };
    expect(body.source.base64).toBeUndefined();
    expect(body.source.file_id).toMatch(/^file_/);
    const reply = (await response.json()) as OptimizeReply;
    expect([reply.width, reply.stats.original_bytes]).toEqual([RESULT_WIDTH, png.length]);
    const result = page.getByRole("img", { name: "Result of large.png" });
    await result.waitFor();
    const width = await result.evaluate(async (element) => {
      const img = element as unknown as ImageElement;
      await img.decode();
      return img.naturalWidth;
    });
    expect(width).toBe(RESULT_WIDTH);
  }, 180_000);

  it("lists stored files a page at a time, makes one durable and gives it an end, copies its transform URL and deletes it", async () => {
    const tiny = (await sharp({ create: { width: 8, height: 8, channels: 3, background: "#36c" } }).png().toBuffer()).toString("base64");
    const stored: string[] = [];
    for (let i = 0; i < 21; i++) {
      const created = await callApi("POST", "/v1/files", { source: { base64: tiny } });
      expect(created.status).toBe(201);
      stored.push((await created.json<{ file_id: string }>()).file_id);
    }
    const newest = stored.at(-1)!;
    let listed = 0;
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const page: { data: unknown[]; next_cursor: string | null } = await (await callApi("GET", `/v1/files?limit=100${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)).json();
      listed += page.data.length;
      cursor = page.next_cursor;
    }

    await page.getByRole("button", { name: "Files", exact: true }).click();
    const rows = page.locator(".file-list tbody tr");
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(20);
    while (await page.getByRole("button", { name: "Load more files" }).isVisible()) {
      const before = await rows.count();
      await page.getByRole("button", { name: "Load more files" }).click();
      await expect.poll(() => rows.count()).toBeGreaterThan(before);
    }
    expect(await rows.count()).toBe(listed);

    const row = page.locator(`.file-list tr[data-file-id="${newest}"]`);
    const fileOf = async () => await (await callApi("GET", `/v1/files/${newest}`)).json<{ expires_at: string | null; status: string }>();
    await row.getByRole("button", { name: `Keep until deleted: ${newest}` }).click();
    await expect.poll(() => row.locator(".kept-until").innerText()).toBe("until deleted");
    expect((await fileOf()).expires_at).toBeNull();

    const end = new Date(Date.now() + 2 * 3_600_000);
    end.setSeconds(0, 0);
    const local = new Date(end.getTime() - end.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await row.getByLabel(`End for ${newest}`).fill(local);
    await row.getByRole("button", { name: "Set expiry" }).click();
    await expect.poll(async () => (await fileOf()).expires_at).toBe(end.toISOString());
    expect(await row.locator(".kept-until").innerText()).toBe(`${end.toISOString().slice(0, 16).replace("T", " ")} UTC`);

    const keyId = await activeKeyId(edge, apiKey);
    await row.getByRole("button", { name: `Copy URL of ${newest}` }).click();
    const transformUrl = `${edge}/v1/image/t/${keyId}/f_auto/${newest}`;
    await expect.poll(() => page.locator("#files-status").innerText()).toContain(transformUrl);
    const image = await fetch(transformUrl);
    expect(image.status).toBe(200);
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(8);

    await row.getByRole("button", { name: `Delete ${newest}` }).click();
    await row.getByRole("button", { name: `Delete ${newest} for good` }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await callApi("GET", `/v1/files/${newest}`)).status).toBe(410);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }, 120_000);

  it("asked nothing of anything but the service and logged no error", () => {
    expect(leftTheMachine).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it("shows the service's problem title and detail when a call fails", async () => {
    await page.getByRole("button", { name: "Images" }).click();
    await page.locator("#choice-quality").selectOption("fixed");
    await page.getByLabel("Fixed quality (1–100)").fill("250");
    await page.getByRole("button", { name: "Optimize all again with these options" }).click();
    // Every image on the page is optimized again (the large upload's too), and each says why it failed.
    const alert = page.getByRole("article", { name: "scan.tiff" }).getByRole("alert");
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toContain(problemCatalogue.validation_failed.title);
    expect(text).toMatch(/quality/);
    // Chromium itself logs every 4xx answer to fetch; the page adds nothing of its own.
    expect(new Set(consoleErrors)).toEqual(new Set(["Failed to load resource: the server responded with a status of 400 (Bad Request)"]));
    expect(leftTheMachine).toEqual([]);
  });

  it("says clearly when storage refuses a large upload, and stores nothing", async () => {
    await page.getByRole("button", { name: "PDFs" }).click();
    const errorsBefore = consoleErrors.length;
    const analyzeCalls = () => requested.filter((request) => request === `POST ${edge}/v1/pdf/analyze`).length;
    const analyzedBefore = analyzeCalls();
    await page.route(`**${PRESIGNED_PUT}**`, (route) => route.fulfill({ status: 403, body: "" }));
    const created = page.waitForResponse((response) => response.url() === `${edge}/v1/uploads`);
    const large = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(26 * 1024 * 1024, 32)]);
    await page.getByLabel(/Drop a PDF here/).setInputFiles({ name: "refused.pdf", mimeType: "application/pdf", buffer: large });
    const fileId = ((await (await created).json()) as { file_id: string }).file_id;
    const alert = page.getByRole("alert").filter({ hasText: "Storage refused the upload" });
    await alert.waitFor();
    expect(await alert.innerText()).toContain("answered 403");
    await page.unroute(`**${PRESIGNED_PUT}**`);
    expect((await (await callApi("GET", `/v1/files/${fileId}`)).json<{ status: string }>()).status).toBe("pending");
    expect(analyzeCalls()).toBe(analyzedBefore);
    // Images still failing from the test before may log their 400s meanwhile; the refused PUT logs one 403.
    expect(consoleErrors.slice(errorsBefore).filter((error) => !error.includes("400"))).toEqual(["Failed to load resource: the server responded with a status of 403 (Forbidden)"]);
  });

  it("has the service sign the URLs when the account requires signatures, and never holds the secret", async () => {
    const keyId = await activeKeyId(edge, apiKey);
    const issued = await callApi("POST", `/v1/keys/${keyId}/signing-secret`);
    const { signing_secret: secret } = await issued.json<{ signing_secret: string }>();
    expect((await callApi("PATCH", "/v1/account", { require_signed_transforms: true })).status).toBe(200);
    let fileId: string | undefined;
    try {
      // A fresh load reads the setting, as a person opening the console would.
      await page.reload();
      await page.getByRole("button", { name: "Files", exact: true }).click();
      const row = page.locator(".file-list tbody tr").filter({ hasText: "image/png" }).first();
      await row.waitFor({ timeout: 20_000 });
      fileId = (await row.getAttribute("data-file-id"))!;
      await row.getByRole("button", { name: /^Build URLs/ }).click();
      await expect.poll(() => page.getByLabel("File id").inputValue(), { timeout: 20_000 }).toBe(fileId);
      expect(await page.getByRole("checkbox", { name: /Signed URLs/ }).isChecked()).toBe(true);
      await page.getByLabel("Width", { exact: true }).fill("6");
      await page.getByLabel("srcset widths").fill("");
      const signed = createSignedImageUrls({ baseUrl: edge, keyId, signingSecret: secret });
      const expected = await signed.transformUrl(fileId, { width: 6, format: "auto" });
      await expect.poll(() => page.getByLabel("Transform URL").inputValue(), { timeout: 20_000 }).toBe(expected);
      expect(await page.getByLabel("<img srcset>").inputValue()).toBe(imgSnippet(await signed.imgAttributes(fileId, { width: 6, format: "auto" }), ""));
      await page.getByRole("checkbox", { name: /Show the picture/ }).check();
      const decoded = await page.getByRole("img", { name: "The transform URL's picture" }).evaluate(async (element) => {
        const img = element as unknown as ImageElement;
        await img.decode();
        return img.naturalWidth;
      });
      expect(decoded).toBe(6);
      // A PDF's page pictures are signed by the service too.
      await page.getByRole("button", { name: "PDFs" }).click();
      await page.getByLabel(/Drop a PDF here/).setInputFiles({ name: "signed-pages.pdf", mimeType: "application/pdf", buffer: Buffer.from(await imagesAtFourDpisPdf()) });
      const firstPage = page.locator('.page-thumb[data-page="1"]').getByRole("img", { name: "Page 1" });
      await firstPage.waitFor({ timeout: 60_000 });
      const signedPage = await firstPage.evaluate(async (element) => {
        const img = element as unknown as ImageElement & { src: string };
        await img.decode();
        return { width: img.naturalWidth, src: img.src };
      });
      expect(signedPage.width).toBe(THUMBNAIL_WIDTH);
      const tokens = new URL(signedPage.src).pathname.split("/")[5]!.split(",");
      expect(tokens.filter((token) => !token.startsWith("s_")).sort()).toEqual(["pg_1", `w_${THUMBNAIL_WIDTH}`]);
      expect(tokens.filter((token) => token.startsWith("s_"))).toHaveLength(1);
      expect(requested.filter((request) => request.includes("signing-secret"))).toEqual([]);
      const pageHtml = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { outerHTML: string } } }).document.documentElement.outerHTML);
      expect(pageHtml).not.toContain(secret);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    } finally {
      expect((await callApi("PATCH", "/v1/account", { require_signed_transforms: false })).status).toBe(200);
      // The files after this one share the account and ask for unsigned URLs: wait until the
      // transform path serves one (at once here, within 30 s wherever another isolate remembers the key).
      if (fileId !== undefined) {
        const unsigned = createImageUrls({ baseUrl: edge, keyId }).transformUrl(fileId, { width: 6 });
        await expect.poll(async () => (await fetch(unsigned)).status, { timeout: 45_000, interval: 1_000 }).toBe(200);
      }
    }
  }, 120_000);
});
