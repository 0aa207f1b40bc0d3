// A large, realistic PDF for the large-file test and bench: one photo-like JPEG per page
// (smooth colour blobs, a gradient and film-grain noise, encoded at high quality), each page
// different, placed at about 350 dpi so a profile's downsampling has real work to do and the
// grain keeps the output from collapsing to nothing. Generated once into the OS temp directory
// under a name that describes its content, so later runs reuse it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { seededRandom } from "../../origin/image/test-support/seeded-random.ts";

const IMAGE_WIDTH = 3000;
const IMAGE_HEIGHT = 2000;
const JPEG_QUALITY = 92;
/** Placed at 612 x 408 pt (8.5 x 5.67 in): about 353 dpi. */
const PAGE_WIDTH_PT = 612;
const PAGE_HEIGHT_PT = (PAGE_WIDTH_PT * IMAGE_HEIGHT) / IMAGE_WIDTH;
/** Blob size in pixels: the scale of the "subjects" in the picture. */
const BLOB_PX = 40;
const GRAIN_AMPLITUDE = 28;
const GENERATOR_VERSION = 1;

export interface LargePdf {
  path: string;
  bytes: number;
  pages: number;
}


async function photoLikeJpeg(page: number): Promise<Buffer> {
  const random = seededRandom(0x9e3779b9 ^ (page * 2654435761));
  const gridWidth = Math.ceil(IMAGE_WIDTH / BLOB_PX);
  const gridHeight = Math.ceil(IMAGE_HEIGHT / BLOB_PX);
  const grid = Buffer.alloc(gridWidth * gridHeight * 3);
  for (let i = 0; i < grid.length; i++) grid[i] = Math.floor(random() * 256);
  const pixels = await sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 3 } })
    .resize(IMAGE_WIDTH, IMAGE_HEIGHT, { kernel: "cubic" })
    .raw()
    .toBuffer();
  const tilt = random() * 80 - 40;
  for (let y = 0, i = 0; y < IMAGE_HEIGHT; y++) {
    for (let x = 0; x < IMAGE_WIDTH; x++) {
      const shade = (x / IMAGE_WIDTH - 0.5) * tilt + (y / IMAGE_HEIGHT - 0.5) * 30;
      for (let channel = 0; channel < 3; channel++, i++) {
        const value = pixels[i]! + shade + (random() - 0.5) * GRAIN_AMPLITUDE;
        pixels[i] = value < 0 ? 0 : value > 255 ? 255 : value;
      }
    }
  }
  return sharp(pixels, { raw: { width: IMAGE_WIDTH, height: IMAGE_HEIGHT, channels: 3 } }).jpeg({ quality: JPEG_QUALITY }).toBuffer();
}

function addPhotoPage(doc: mupdf.PDFDocument, jpeg: Buffer): void {
  const image = new mupdf.Image(jpeg);
  const xobjects = doc.newDictionary();
  xobjects.put("Im0", doc.addImage(image));
  image.destroy();
  const resources = doc.newDictionary();
  resources.put("XObject", xobjects);
  const contents = `q ${PAGE_WIDTH_PT} 0 0 ${PAGE_HEIGHT_PT} 0 0 cm /Im0 Do Q`;
  doc.insertPage(-1, doc.addPage([0, 0, PAGE_WIDTH_PT, PAGE_HEIGHT_PT], 0, resources, contents));
}

/** A PDF of at least `minBytes`: photo pages are added until their JPEG streams reach it. */
export async function largePdf(minBytes: number): Promise<LargePdf> {
  const name = `pixelpress-photo-pdf-v${GENERATOR_VERSION}-${IMAGE_WIDTH}x${IMAGE_HEIGHT}-q${JPEG_QUALITY}-min${minBytes}.pdf`;
  const file = path.join(os.tmpdir(), name);
  if (fs.existsSync(file)) {
    const doc = mupdf.Document.openDocument(fs.readFileSync(file), "application/pdf");
    const pages = doc.countPages();
    doc.destroy();
    return { path: file, bytes: fs.statSync(file).size, pages };
  }
  const doc = new mupdf.PDFDocument();
  let imageBytes = 0;
  let pages = 0;
  while (imageBytes < minBytes) {
    const jpeg = await photoLikeJpeg(pages);
    addPhotoPage(doc, jpeg);
    imageBytes += jpeg.length;
    pages++;
  }
  const saved = doc.saveToBuffer("compress");
  // Written under a private name and renamed, so a concurrent reader never sees half a file.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, saved.asUint8Array());
  saved.destroy();
  doc.destroy();
  fs.renameSync(partial, file);
  return { path: file, bytes: fs.statSync(file).size, pages };
}
