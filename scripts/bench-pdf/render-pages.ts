// Renders PDF pages with poppler at the bench's resolution, 8-bit gray (or RGB for the
// SSIMULACRA 2 check), and reads the PGMs (PPMs) back.
import fs from "node:fs";
import path from "node:path";
import type { LumaImage } from "../../origin/pdf/ssim.ts";
import type { RawImage } from "../../origin/quality/raw-image.ts";
import { runCommand } from "./run-command.ts";

export const RENDER_DPI = 150;

export interface RenderedPage extends LumaImage {
  data: Buffer;
}

/** Renders pages first..last (1-based) into dir; returns the images by page number, missing pages absent. */
export async function renderPages(pdfPath: string, password: string | null, first: number, last: number, dir: string, dpi = RENDER_DPI): Promise<Map<number, RenderedPage>> {
  const pages = new Map<number, RenderedPage>();
  for (const [page, file] of await renderFiles(pdfPath, password, first, last, dir, dpi, "gray")) pages.set(page, readPgm(file));
  return pages;
}

/** The same pages in 8-bit RGB (pdftoppm's PPM). */
export async function renderRgbPages(pdfPath: string, password: string | null, first: number, last: number, dir: string, dpi = RENDER_DPI): Promise<Map<number, RawImage>> {
  const pages = new Map<number, RawImage>();
  for (const [page, file] of await renderFiles(pdfPath, password, first, last, dir, dpi, "rgb")) {
    const { data, width, height } = readPnm(file, "P6");
    pages.set(page, { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height, channels: 3 });
  }
  return pages;
}

async function renderFiles(pdfPath: string, password: string | null, first: number, last: number, dir: string, dpi: number, colour: "gray" | "rgb"): Promise<Map<number, Buffer>> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const args = ["-r", String(dpi), ...(colour === "gray" ? ["-gray"] : []), "-f", String(first), "-l", String(last), ...(password === null ? [] : ["-upw", password]), pdfPath, path.join(dir, "p")];
  await runCommand("pdftoppm", args);
  const files = new Map<number, Buffer>();
  for (const name of fs.readdirSync(dir)) {
    const page = /-(\d+)\.p[gp]m$/.exec(name);
    if (page !== null) files.set(Number(page[1]), fs.readFileSync(path.join(dir, name)));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return files;
}

/** Binary PGM (P5) with maxval 255, as pdftoppm -gray writes it. */
function readPgm(file: Buffer): RenderedPage {
  return readPnm(file, "P5");
}

/** Binary PGM (P5) or PPM (P6) with maxval 255; the samples as they are stored. */
function readPnm(file: Buffer, expected: "P5" | "P6"): RenderedPage {
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
  if (magic !== expected || maxval !== "255") throw new Error(`not an 8-bit binary ${expected}: ${fields.join(" ")}`);
  const w = Number(width);
  const h = Number(height);
  const start = offset + 1;
  return { data: file.subarray(start, start + w * h * (expected === "P6" ? 3 : 1)), width: w, height: h };
}
