// Builds small PDFs with known facts (pixel sizes, placements, encodings) for the
// engine's tests, with mupdf's object API and sharp-encoded image streams.
import { constants as zlibConstants, deflateSync } from "node:zlib";
import * as mupdf from "mupdf";
import sharp from "sharp";

export interface TestImage {
  name: string;
  stream: Uint8Array;
  dict: Record<string, unknown>;
}

export interface TestPlacement {
  image: string;
  /** Placed size and position in points. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Smooth colour gradients with a little noise: compresses like a photograph. */
export function photoPixels(width: number, height: number, channels: 1 | 3 | 4, seed = 1): Uint8Array {
  const data = new Uint8Array(width * height * channels);
  let state = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const noise = (state >> 16) % 24;
      for (let c = 0; c < channels; c++) {
        const wave = Math.sin((x * (c + 1)) / 37 + (y * (3 - c)) / 53) * 80;
        data[(y * width + x) * channels + c] = Math.max(0, Math.min(255, Math.round(120 + wave + noise)));
      }
    }
  }
  return data;
}

/** An RGB JPEG of photoPixels with the IJG (Annex K) tables at a known quality, baseline. */
export async function jpegImage(name: string, width: number, height: number, quality: number): Promise<TestImage> {
  const jpeg = await sharp(photoPixels(width, height, 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality, quantisationTable: 0, progressive: false })
    .toBuffer();
  return {
    name,
    stream: new Uint8Array(jpeg),
    dict: { Type: "XObject", Subtype: "Image", Width: width, Height: height, ColorSpace: "DeviceRGB", BitsPerComponent: 8, Filter: "DCTDecode" },
  };
}

/** A PDF whose pages draw the given images at the given placements. */
export function buildPdf(images: TestImage[], pages: TestPlacement[][], pageSize: [number, number] = [612, 792]): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const refs = new Map<string, mupdf.PDFObject>();
    for (const image of images) refs.set(image.name, doc.addRawStream(image.stream, image.dict));
    for (const placements of pages) {
      const xobjects: Record<string, mupdf.PDFObject> = {};
      let content = "";
      for (const placement of placements) {
        const ref = refs.get(placement.image);
        if (ref === undefined) throw new Error(`unknown image ${placement.image}`);
        xobjects[placement.image] = ref;
        content += `q ${placement.width} 0 0 ${placement.height} ${placement.x} ${placement.y} cm /${placement.image} Do Q\n`;
      }
      const page = doc.addPage([0, 0, pageSize[0], pageSize[1]], 0, { XObject: xobjects }, content);
      doc.insertPage(-1, page);
    }
    return doc.saveToBuffer("compress").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

/** Opens a PDF, lets fn edit it, and saves it (with the given save options). */
export function editPdf(bytes: Uint8Array, fn: (doc: mupdf.PDFDocument) => void, saveOptions = "compress"): Uint8Array {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  if (doc === null) throw new Error("not a PDF");
  try {
    fn(doc);
    return doc.saveToBuffer(saveOptions).asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

const PDFA_XMP = `<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>
<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
<rdf:Description rdf:about='' xmlns:pdfaid='http://www.aiim.org/pdfa/ns/id/' pdfaid:part='2' pdfaid:conformance='B'/>
</rdf:RDF></x:xmpmeta><?xpacket end='w'?>`;

/** Adds an XMP PDF/A-2B identification (single-quoted attributes) and an output intent. */
export function withPdfaClaim(bytes: Uint8Array): Uint8Array {
  return editPdf(bytes, (doc) => {
    const catalog = doc.getTrailer().get("Root");
    catalog.put("Metadata", doc.addStream(PDFA_XMP, { Type: "Metadata", Subtype: "XML" }));
    catalog.put("OutputIntents", [doc.addObject({ Type: "OutputIntent", S: "GTS_PDFA1", OutputConditionIdentifier: "(sRGB)" })]);
  });
}

/**
 * `pages` pages that all draw one small photo through one shared content stream and one shared
 * resource dictionary, the shape of a hostile many-page file (20,000 such pages are about 200 kB).
 * The page tree is one flat /Kids array written directly: insertPage would rebuild it per page.
 */
export async function sharedContentPdf(pages: number): Promise<Uint8Array> {
  const doc = new mupdf.PDFDocument();
  try {
    const photo = await jpegImage("Photo", 64, 48, 80);
    const content = doc.addStream("q 100 0 0 75 72 600 cm /Photo Do Q\n", {});
    const resources = doc.addObject({ XObject: { Photo: doc.addRawStream(photo.stream, photo.dict) } });
    const tree = doc.getTrailer().get("Root").get("Pages");
    const kids = doc.newArray();
    for (let page = 0; page < pages; page++) kids.push(doc.addObject({ Type: "Page", MediaBox: [0, 0, 612, 792], Resources: resources, Contents: content, Parent: tree }));
    tree.put("Kids", kids);
    tree.put("Count", pages);
    return doc.saveToBuffer("compress,objstms").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

/**
 * One page whose content stream is a Flate bomb: `decodedBytes` of spaces, which zlib's run-length
 * strategy squeezes about a thousand to one (300 MiB is a 0.3 MB file).
 */
export function flateBombPdf(decodedBytes: number): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const bomb = deflateSync(Buffer.alloc(decodedBytes, 0x20), { level: 9, strategy: zlibConstants.Z_RLE });
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, {}, ""));
    doc.findPage(0).put("Contents", doc.addRawStream(new Uint8Array(bomb), { Filter: "FlateDecode" }));
    return doc.saveToBuffer("").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

/**
 * One `side`-point square page of `fills` full-page fills, each blended (Multiply, half alpha):
 * a few hundred bytes whose drawing costs MuPDF a transparency group over the whole page per fill.
 */
export function blendedFillsPdf(fills: number, side = 14_400): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const state = doc.newDictionary();
    state.put("BM", doc.newName("Multiply"));
    state.put("ca", 0.5);
    const states = doc.newDictionary();
    states.put("Blend", doc.addObject(state));
    const resources = doc.newDictionary();
    resources.put("ExtGState", states);
    let content = "/Blend gs\n";
    for (let i = 0; i < fills; i++) content += `${(i % 3) / 2} ${(i % 5) / 4} ${(i % 7) / 6} rg 0 0 ${side} ${side} re f\n`;
    doc.insertPage(-1, doc.addPage([0, 0, side, side], 0, resources, content));
    return doc.saveToBuffer("compress").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

/**
 * A PDF whose page tree loops: after its one page, the root lists a Pages node whose only kid is
 * the root, while /Count claims two pages.
 */
export function loopedPageTreePdf(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    doc.insertPage(-1, doc.addPage([0, 0, 100, 100], 0, {}, ""));
    const root = doc.getTrailer().get("Root").get("Pages");
    const loop = doc.newDictionary();
    loop.put("Type", doc.newName("Pages"));
    loop.put("Parent", root);
    loop.put("Kids", doc.newArray());
    loop.put("Count", 1);
    const node = doc.addObject(loop);
    node.get("Kids").push(root);
    root.get("Kids").push(node);
    root.put("Count", 2);
    return doc.saveToBuffer("").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}
