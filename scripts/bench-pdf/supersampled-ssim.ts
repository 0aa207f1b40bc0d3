// A second look at the pages an output loses at the bench's resolution: both documents rendered
// by pdftoppm at four times that resolution and area-averaged down to it, which leaves out how
// pdftoppm itself brings an image placed above the render's resolution down. That step is no
// area average: on page 1 of syn_scan300_grayjpeg (a 300 dpi scan), the 2x2 average of the
// decoded image scores at most 0.955 SSIM against pdftoppm's 150 dpi render of it, at any phase.
// A page below the target here too lost detail; one that passes here differs mainly in how
// pdftoppm renders the input.
import path from "node:path";
import { ssim, type LumaImage } from "../../origin/pdf/ssim.ts";
import { RENDER_DPI, renderPages } from "./render-pages.ts";

export const FACTOR = 4;

/** The image brought down `factor` times by averaging each factor x factor block, every channel alike. */
export function areaAverage<T extends LumaImage & { data: Uint8Array | Buffer }>(image: T, factor: number, channels = 1): { data: Uint8Array; width: number; height: number } {
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Uint8Array(width * height * channels);
  const sums = new Uint32Array(width * channels);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let dy = 0; dy < factor; dy++) {
      const row = (y * factor + dy) * image.width * channels;
      for (let x = 0; x < width * factor; x++) {
        const target = Math.floor(x / factor) * channels;
        for (let c = 0; c < channels; c++) sums[target + c]! += image.data[row + x * channels + c]!;
      }
    }
    for (let i = 0; i < width * channels; i++) data[y * width * channels + i] = Math.round(sums[i]! / (factor * factor));
  }
  return { data, width, height };
}

async function renderDown(pdf: string, password: string | null, page: number, dir: string): Promise<LumaImage | undefined> {
  const rendered = (await renderPages(pdf, password, page, page, dir, RENDER_DPI * FACTOR)).get(page);
  return rendered === undefined ? undefined : areaAverage(rendered, FACTOR);
}

/** The pages of `pages` that stay below `target` this way (a page that does not render counts). */
export async function pagesBelowSupersampled(input: string, output: string, password: string | null, pages: number[], target: number, workDir: string): Promise<number> {
  let below = 0;
  for (const page of pages) {
    const [before, after] = await Promise.all([renderDown(input, password, page, path.join(workDir, "super-in")), renderDown(output, password, page, path.join(workDir, "super-out"))]);
    const comparable = before !== undefined && after !== undefined && before.width === after.width && before.height === after.height;
    if (!comparable || ssim(before, after) < target) below++;
  }
  return below;
}
