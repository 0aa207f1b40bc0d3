// `npm run screenshots:console`: the console's pictures in docs/ (1400 and 400 px wide), taken in
// headless Chromium from a fresh pair started as `npm start` starts it, after a real JPEG was
// optimized and a generated PDF analyzed and compressed, so the pictures show real comparisons,
// real page pictures and real usage. Writes PNGs quantised to a
// palette so the README's pictures stay small.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import sharp from "sharp";
import { orientedPhotoJpeg } from "../test/fixtures/images.ts";
import { imagesAtFourDpisPdf } from "../test/fixtures/pdfs.ts";
import { startServicePair } from "../test/support/service-pair.ts";

const OUT_DIR = process.argv[2] ?? "docs";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

async function shoot(page: Page, name: string): Promise<void> {
  const png = await page.screenshot({ fullPage: true });
  const small = await sharp(png).png({ palette: true, colours: 128, compressionLevel: 9, effort: 10 }).toBuffer();
  writeFileSync(join(OUT_DIR, name), small);
  console.log(`${join(OUT_DIR, name)}: ${small.length} bytes`);
}

const pair = await startServicePair();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${pair.edgeUrl}/`);
  await page.getByLabel("API key").fill(pair.apiKey);
  await page.getByRole("button", { name: "Use key" }).click();
  await page.getByLabel("Width (px)").fill("800");
  await page.locator("#choice-quality").selectOption("auto:good");
  await page.locator("#image-files").setInputFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await orientedPhotoJpeg("landscape", 0)) });
  await page.getByRole("img", { name: "Result of photo.jpg" }).waitFor({ timeout: 120_000 });
  await page.getByLabel("Split").fill("40");
  await shoot(page, "console-1400.png");
  await page.getByRole("button", { name: "Account" }).click();
  await page.locator("#usage-count rect").first().waitFor();
  await shoot(page, "console-account-1400.png");
  await page.getByRole("button", { name: "Files", exact: true }).click();
  await page.getByLabel(/Upload a durable file/).setInputFiles({ name: "hero.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await orientedPhotoJpeg("landscape", 0)) });
  await page.locator(".file-list tbody tr").first().waitFor({ timeout: 60_000 });
  await shoot(page, "console-files-1400.png");
  await page.getByRole("button", { name: "PDFs" }).click();
  await page.getByLabel(/Drop a PDF here/).setInputFiles({ name: "brochure.pdf", mimeType: "application/pdf", buffer: Buffer.from(await imagesAtFourDpisPdf()) });
  for (const pageNumber of [1, 2]) {
    const picture = page.locator(`.page-thumb[data-page="${pageNumber}"] img`);
    await picture.waitFor({ timeout: 120_000 });
    await picture.evaluate((element) => (element as unknown as { decode(): Promise<void> }).decode());
  }
  await page.getByLabel("Profile").selectOption("screen");
  await page.getByRole("button", { name: /^Compress/ }).click();
  await page.getByLabel(/Page to compare/).selectOption("2", { timeout: 120_000 });
  for (const name of ["Original of Page 2", "Result of Page 2"]) await page.getByRole("img", { name }).evaluate((element) => (element as unknown as { decode(): Promise<void> }).decode());
  await page.locator("#pdf-compare-split").fill("50");
  await shoot(page, "console-pdf-1400.png");
  await page.setViewportSize({ width: 400, height: 800 });
  await page.getByRole("button", { name: "Images" }).click();
  await shoot(page, "console-400.png");
} finally {
  await browser.close();
  await pair.stop();
}
