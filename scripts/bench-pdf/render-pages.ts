// Renders PDF pages with poppler at the bench's resolution, 8-bit gray, and reads the PGMs back.
import fs from "node:fs";
import path from "node:path";
import type { LumaImage } from "../../origin/pdf/ssim.ts";
import { runCommand } from "./run-command.ts";

export const RENDER_DPI = 150;

export interface RenderedPage extends LumaImage {
  data: Buffer;
}

/** Renders pages first..last (1-based) into dir; returns the images by page number, missing pages absent. */
export async function renderPages(pdfPath: string, password: string | null, first: number, last: number, dir: string, dpi = RENDER_DPI): Promise<Map<number, RenderedPage>> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const args = ["-r", String(dpi), "-gray", "-f", String(first), "-l", String(last), ...(password === null ? [] : ["-upw", password]), pdfPath, path.join(dir, "p")];
  await runCommand("pdftoppm", args);
  const pages = new Map<number, RenderedPage>();
  for (const name of fs.readdirSync(dir)) {
    const page = /-(\d+)\.pgm$/.exec(name);
    if (page !== null) pages.set(Number(page[1]), readPgm(fs.readFileSync(path.join(dir, name))));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return pages;
}

/** Binary PGM (P5) with maxval 255, as pdftoppm -gray writes it. */
export function readPgm(file: Buffer): RenderedPage {
  const fields: string[] = [];
  let offset = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(file[offset]!))) offset++;
    if (file[offset] === 0x23) {
      while (file[offset] !== 0x0a) offset++;
      continue;
    }
    const start = offset;
    while (!/\s/.test(String.fromCharCode(file[offset]!))) offset++;
    fields.push(file.subarray(start, offset).toString("latin1"));
  }
  const [magic, width, height, maxval] = fields;
  if (magic !== "P5" || maxval !== "255") throw new Error(`not an 8-bit binary PGM: ${fields.join(" ")}`);
  const w = Number(width);
  const h = Number(height);
  const start = offset + 1;
  return { data: file.subarray(start, start + w * h), width: w, height: h };
}
