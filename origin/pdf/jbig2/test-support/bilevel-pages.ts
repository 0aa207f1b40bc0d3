// Bilevel test pages: rendered text (sharp from an SVG), noise, and a scan's page images.
import * as mupdf from "mupdf";
import sharp from "sharp";
import { packBitmap, packedStride } from "../bitmap.ts";
import type { PackedBitmap } from "../bitmap.ts";

export async function textPage(width: number, height: number, lines: string[]): Promise<PackedBitmap> {
  const text = lines.map((line, index) => `<text x="12" y="${30 + index * 28}" font-family="DejaVu Sans, sans-serif" font-size="20">${line}</text>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  const gray = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const channels = gray.info.channels;
  const pixels = new Uint8Array(width * height);
  for (let index = 0; index < pixels.length; index++) pixels[index] = (gray.data[index * channels] as number) < 128 ? 1 : 0;
  return packBitmap({ width, height, pixels });
}

export function noisePage(width: number, height: number, density: number, seed = 7): PackedBitmap {
  let state = seed;
  const pixels = new Uint8Array(width * height);
  for (let index = 0; index < pixels.length; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    pixels[index] = state / 0x7fffffff < density ? 1 : 0;
  }
  return packBitmap({ width, height, pixels });
}

export function filledPage(width: number, height: number, black: boolean): PackedBitmap {
  return { width, height, rows: new Uint8Array(packedStride(width) * height).fill(black ? 0xff : 0) };
}

/** A scan's page images as ink bits (1-bit gray with /Decode [1 0], so sample 1 is black). */
export function scanPages(pdf: Uint8Array): PackedBitmap[] {
  const doc = mupdf.PDFDocument.openDocument(pdf, "application/pdf").asPDF();
  if (doc === null) throw new Error("not a PDF");
  try {
    const pages: PackedBitmap[] = [];
    for (let index = 0; index < doc.countPages(); index++) {
      const ref = doc.findPage(index).get("Resources").get("XObject");
      ref.forEach((value) => {
        const width = value.get("Width").asNumber();
        const height = value.get("Height").asNumber();
        pages.push({ width, height, rows: value.readStream().asUint8Array().slice(0, packedStride(width) * height) });
      });
    }
    return pages;
  } finally {
    doc.destroy();
  }
}
