// The continuous-tone images of the corpus that quality levels are calibrated and judged on: the
// distinct photos under img/ (the exif-orientation sets repeat two photos, so one of each) and the
// photos, paintings and shaded graphics embedded in the PDFs, as mupdf decodes them (JPX, Indexed
// CMYK and Flate included). Text scans, bilevel pages, UI screenshots and duplicates (the syn_photo
// PDFs carry the same canyon photo as issue19971) are left out: they are not what `quality: auto`
// on a photo is about. Each image is handed over as the bytes an API caller would send: the file
// itself, or for a PDF image its decoded pixels as a lossless PNG.
import fs from "node:fs";
import path from "node:path";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { pixelsFromPixmap } from "../../origin/pdf/raw-pixels.ts";
import { CORPUS_DIR } from "../../test/support/corpus-dir.ts";

export interface CorpusImage {
  name: string;
  /** Where it comes from, as a reader of the table would look it up. */
  kind: string;
  read: () => Promise<Uint8Array>;
}

const FILE_IMAGES: { file: string; kind: string }[] = [
  { file: "img/avif/fox.png", kind: "photo" },
  { file: "img/avif/kimono.avif", kind: "painting" },
  { file: "img/exif-orientation/Landscape_0.jpg", kind: "photo" },
  { file: "img/exif-orientation/Portrait_0.jpg", kind: "photo" },
];

const PDF_IMAGES: { file: string; object: number; kind: string }[] = [
  { file: "pdfjs_issue19971_photos.pdf", object: 8, kind: "painting" },
  { file: "pdfjs_issue19971_photos.pdf", object: 218, kind: "illustration" },
  { file: "pdfjs_issue19971_photos.pdf", object: 231, kind: "photo" },
  { file: "pdfjs_issue5567_jpx.pdf", object: 11, kind: "photo JPX" },
  { file: "pypdf_base64image.pdf", object: 15, kind: "photo + text" },
  { file: "pypdf_cmyk_image.pdf", object: 5, kind: "photo Indexed CMYK" },
  { file: "pypdf_geotopo.pdf", object: 473, kind: "shaded graphic" },
  { file: "pdfjs_images_cairo.pdf", object: 12, kind: "shaded graphic" },
  { file: "pdfjs_images_cairo.pdf", object: 15, kind: "shaded graphic" },
  { file: "pdfjs_issue1905_lo.pdf", object: 12, kind: "shaded chart" },
  ...[17, 18, 19, 20, 21, 22].map((object) => ({ file: "pdfjs_S2_indexed_jpx.pdf", object, kind: "false-colour map JPX" })),
];

function fileImage({ file, kind }: (typeof FILE_IMAGES)[number]): CorpusImage {
  return { name: file, kind, read: () => fs.promises.readFile(path.join(CORPUS_DIR, file)).then((bytes) => new Uint8Array(bytes)) };
}

function pdfImage({ file, object, kind }: (typeof PDF_IMAGES)[number]): CorpusImage {
  return { name: `pdf/${file}#${object}`, kind, read: () => pdfImageAsPng(path.join(CORPUS_DIR, "pdf", file), object) };
}

// mupdf applies Decode arrays, expands Indexed and decodes JPX; anything not gray or RGB (CMYK,
// Separation) is converted to RGB here, as a renderer would show it.
async function pdfImageAsPng(file: string, object: number): Promise<Uint8Array> {
  const doc = mupdf.Document.openDocument(fs.readFileSync(file), "application/pdf");
  const image = doc.asPDF()!.loadImage(doc.asPDF()!.newIndirect(object));
  const pixmap = image.toPixmap();
  const components = pixmap.getNumberOfComponents() - pixmap.getAlpha();
  const shown = components === 1 || components === 3 ? pixmap : pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, false);
  try {
    const { data, width, height, channels } = pixelsFromPixmap(shown);
    return new Uint8Array(await sharp(data, { raw: { width, height, channels } }).png({ compressionLevel: 1 }).toBuffer());
  } finally {
    if (shown !== pixmap) shown.destroy();
    pixmap.destroy();
    image.destroy();
    doc.destroy();
  }
}

/** The photos under img/ present under CORPUS_DIR. */
export function corpusPhotoFiles(): CorpusImage[] {
  return FILE_IMAGES.filter(({ file }) => fs.existsSync(path.join(CORPUS_DIR, file))).map(fileImage);
}

/** The images present under CORPUS_DIR (a partial corpus gives a partial list). */
export function corpusImages(): CorpusImage[] {
  return [...corpusPhotoFiles(), ...PDF_IMAGES.filter(({ file }) => fs.existsSync(path.join(CORPUS_DIR, "pdf", file))).map(pdfImage)];
}
