// Re-encodes the bilevel images of a document as lossless JBIG2 (jbig2/), all of
// them sharing one symbol dictionary through /JBIG2Globals. Bilevel means 1-bit
// gray images, stencil masks, and images of any depth whose pixels hold exactly
// two colours, which become 1-bit Indexed images so they render the same.
// `auto` keeps the JBIG2 streams only where they are smaller than the current
// encoding; `lossless` uses them for every bilevel image; `off` skips the pass.
// 1-bit images placed above the profile's 1-bit resolution are first brought down
// to it (jbig2/downsample-bitmap.ts), as continuous-tone images are to theirs.
// The encoding depends only on the input's image streams, so one request encodes
// once and every output run just writes the cached streams.
import * as mupdf from "mupdf";
import type { PdfCompressOptions } from "../../contracts/pdf-options.ts";
import type { ImageFacts } from "./image-facts.ts";
import type { ColorSpaceFamily } from "./image-inventory.ts";
import { packedStride } from "./jbig2/bitmap.ts";
import type { PackedBitmap } from "./jbig2/bitmap.ts";
import { downsampleBitmap } from "./jbig2/downsample-bitmap.ts";
import { encodeJbig2 } from "./jbig2/encode-jbig2.ts";
import { numberOf } from "./pdf-objects.ts";
import { decodeImagePixels } from "./raw-pixels.ts";
import type { PdfJbig2 } from "../../contracts/origin/pdf-compress.ts";

export type Jbig2Mode = PdfCompressOptions["jbig2"];

export type Jbig2Stats = PdfJbig2;

/** How the ink (JBIG2's 1) and paper pixels are coloured once the image is 1-bit JBIG2. */
type Coloring = { kind: "gray" } | { kind: "mask" } | { kind: "indexed"; lookup: Uint8Array };

interface Candidate {
  objectNumber: number;
  bytesBefore: number;
  ink: PackedBitmap;
  coloring: Coloring;
  downsampled: boolean;
}

/** Where 1-bit images go: down to `dpi` when placed above `dpi * threshold`. */
export interface BilevelResolution {
  dpi: number;
  threshold: number;
}

interface Conversion {
  globals: Uint8Array | null;
  symbols: number;
  images: { objectNumber: number; bytesBefore: number; stream: Uint8Array; coloring: Coloring; width: number; height: number; downsampled: boolean }[];
}

const TWO_LEVEL_FAMILIES = new Set<ColorSpaceFamily>(["DeviceGray", "DeviceRGB", "DeviceCMYK", "CalGray", "CalRGB", "ICCBased", "Indexed"]);
// One decoded page at 600 dpi A3 is about 70 MP. Two-colour images are decoded to 8-bit samples to count their colours; 1-bit ones stay
// packed (a 400 MP page is 50 MB), and the largest are brought down before encoding.
const MAX_DECODED_PIXELS = 80_000_000;
const MAX_ONE_BIT_PIXELS = 400_000_000;

function eligible(image: ImageFacts): boolean {
  if (image.softMaskOf.length > 0 || image.hasMask || image.alphaInData || image.placement === null) return false;
  if (image.filters.includes("JBIG2Decode") || image.width < 1 || image.height < 1) return false;
  const pixels = image.width * image.height;
  if (image.isStencilMask) return pixels <= MAX_ONE_BIT_PIXELS;
  if (image.bitsPerComponent === 1) return image.colorSpace.family === "DeviceGray" && pixels <= MAX_ONE_BIT_PIXELS;
  if (pixels > MAX_DECODED_PIXELS) return false;
  // Lossy encodings practically never leave exactly two levels; decoding them to find out is not worth it.
  const lossy = image.filters.includes("DCTDecode") || image.filters.includes("JPXDecode");
  return !lossy && TWO_LEVEL_FAMILIES.has(image.colorSpace.family);
}

/** Whether a 1-bit image's sample 1 is ink: black for gray, painted for a stencil mask. Only /Decode [1 0] says so. */
function oneIsInk(dict: mupdf.PDFObject): boolean {
  const decode = dict.get("Decode");
  return decode.isArray() && numberOf(decode.get(0)) === 1 && numberOf(decode.get(1)) === 0;
}

function readOneBitImage(doc: mupdf.PDFDocument, image: ImageFacts): Candidate | null {
  const ref = doc.newIndirect(image.objectNumber);
  const decoded = ref.readStream();
  try {
    const samples = decoded.asUint8Array();
    const size = packedStride(image.width) * image.height;
    if (samples.length < size) return null;
    const rows = samples.slice(0, size);
    if (!oneIsInk(ref)) for (let index = 0; index < rows.length; index++) rows[index] = ~(rows[index] as number) & 0xff;
    const coloring: Coloring = image.isStencilMask ? { kind: "mask" } : { kind: "gray" };
    return { objectNumber: image.objectNumber, bytesBefore: image.bytes, ink: { width: image.width, height: image.height, rows }, coloring, downsampled: false };
  } finally {
    decoded.destroy();
    ref.destroy();
  }
}

/** An image whose pixels hold exactly two colours, as ink (the rarer colour) on paper. */
function readTwoColourImage(doc: mupdf.PDFDocument, image: ImageFacts): Candidate | null {
  const pixels = decodeImagePixels(doc, image.objectNumber, false);
  const { data, width, height, channels } = pixels;
  const colours: number[] = [0, 0];
  const key = (offset: number): number => {
    let value = 0;
    for (let c = 0; c < channels; c++) value = value * 256 + (data[offset + c] as number);
    return value;
  };
  const firstColour = key(0);
  colours[0] = firstColour;
  let distinct = 1;
  let firstCount = 0;
  for (let offset = 0; offset < data.length; offset += channels) {
    const colour = key(offset);
    if (colour === firstColour) {
      firstCount++;
      continue;
    }
    if (distinct === 1) {
      colours[1] = colour;
      distinct = 2;
    } else if (colour !== colours[1]) {
      return null;
    }
  }
  if (distinct !== 2) return null;
  const inkColour = firstCount * 2 <= width * height ? firstColour : (colours[1] as number);
  const paperColour = inkColour === firstColour ? (colours[1] as number) : firstColour;
  const stride = packedStride(width);
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (key((y * width + x) * channels) === inkColour) rows[y * stride + (x >> 3)] = (rows[y * stride + (x >> 3)] as number) | (0x80 >> (x & 7));
    }
  }
  // Sample 0 (what JBIG2Decode makes of ink) indexes the ink colour.
  const lookup = new Uint8Array(2 * channels);
  for (let c = 0; c < channels; c++) {
    const shift = 8 * (channels - 1 - c);
    lookup[c] = Math.floor(inkColour / 2 ** shift) % 256;
    lookup[channels + c] = Math.floor(paperColour / 2 ** shift) % 256;
  }
  return { objectNumber: image.objectNumber, bytesBefore: image.bytes, ink: { width, height, rows }, coloring: { kind: "indexed", lookup }, downsampled: false };
}

function readCandidate(doc: mupdf.PDFDocument, image: ImageFacts): Candidate | null {
  try {
    return image.isStencilMask || image.bitsPerComponent === 1 ? readOneBitImage(doc, image) : readTwoColourImage(doc, image);
  } catch {
    // An image mupdf cannot decode is left to the rest of the engine, which reports it.
    return null;
  }
}

/** The candidate at the resolution its placement calls for. */
function atResolution(candidate: Candidate, image: ImageFacts, resolution: BilevelResolution): Candidate {
  const dpi = image.placement?.minDpi ?? 0;
  if (dpi <= resolution.dpi * resolution.threshold) return candidate;
  const scale = resolution.dpi / dpi;
  const width = Math.max(1, Math.round(candidate.ink.width * scale));
  const height = Math.max(1, Math.round(candidate.ink.height * scale));
  return { ...candidate, ink: downsampleBitmap(candidate.ink, width, height), downsampled: true };
}

function encodeCandidates(candidates: readonly Candidate[]): Conversion {
  const streams = encodeJbig2(candidates.map((candidate) => candidate.ink));
  return {
    globals: streams.globals,
    symbols: streams.symbols,
    images: candidates.map((candidate, index) => ({
      objectNumber: candidate.objectNumber,
      bytesBefore: candidate.bytesBefore,
      stream: streams.pages[index] as Uint8Array,
      coloring: candidate.coloring,
      width: candidate.ink.width,
      height: candidate.ink.height,
      downsampled: candidate.downsampled,
    })),
  };
}

function conversionBytes(conversion: Conversion): number {
  return (conversion.globals?.length ?? 0) + conversion.images.reduce((total, image) => total + image.stream.length, 0);
}

/** In auto: drop images whose own stream is not smaller, re-encode the rest, and keep the lot only if it saves bytes overall. */
function chooseConversion(candidates: Candidate[], mode: Jbig2Mode): Conversion | null {
  let remaining = candidates;
  while (remaining.length > 0) {
    const conversion = encodeCandidates(remaining);
    if (mode === "lossless") return conversion;
    const smaller = new Set(conversion.images.filter((image) => image.stream.length < image.bytesBefore).map((image) => image.objectNumber));
    if (smaller.size === remaining.length) {
      const before = remaining.reduce((total, candidate) => total + candidate.bytesBefore, 0);
      return conversionBytes(conversion) < before ? conversion : null;
    }
    remaining = remaining.filter((candidate) => smaller.has(candidate.objectNumber));
  }
  return null;
}

function colorSpaceFor(doc: mupdf.PDFDocument, dict: mupdf.PDFObject, coloring: Coloring): mupdf.PDFObject {
  if (coloring.kind !== "indexed") return doc.newName("DeviceGray");
  const current = dict.get("ColorSpace");
  const base = current.isArray() && current.get(0).isName() && ["Indexed", "I"].includes(current.get(0).asName()) ? current.get(1) : current;
  const indexed = doc.newArray();
  indexed.push(doc.newName("Indexed"));
  indexed.push(base);
  indexed.push(1);
  indexed.push(doc.newByteString(coloring.lookup));
  return indexed;
}

function writeConversion(doc: mupdf.PDFDocument, conversion: Conversion): void {
  const globals = conversion.globals === null ? null : doc.addStream(conversion.globals, {});
  for (const image of conversion.images) {
    const dict = doc.newIndirect(image.objectNumber);
    try {
      if (image.coloring.kind !== "mask") dict.put("ColorSpace", colorSpaceFor(doc, dict, image.coloring));
      dict.writeRawStream(image.stream);
      for (const key of ["DecodeParms", "Decode", "Length1", "DL"]) dict.delete(key);
      dict.put("Filter", doc.newName("JBIG2Decode"));
      dict.put("BitsPerComponent", 1);
      dict.put("Width", image.width);
      dict.put("Height", image.height);
      if (globals !== null) {
        const parms = doc.newDictionary();
        parms.put("JBIG2Globals", globals);
        dict.put("DecodeParms", parms);
      }
    } finally {
      dict.destroy();
    }
  }
}

/** The JBIG2 pass of one request: plans and encodes on its first document, writes the same streams into every later one. */
export class Jbig2Images {
  private readonly mode: Jbig2Mode;
  private readonly resolution: BilevelResolution;
  private conversion: Conversion | null = null;
  private planned = false;
  private cpuMs = 0;

  constructor(mode: Jbig2Mode, resolution: BilevelResolution) {
    this.mode = mode;
    this.resolution = resolution;
  }

  /** Object numbers this pass turned into JBIG2, which the image rewriter must leave alone. */
  converted(): Set<number> {
    return new Set(this.conversion?.images.map((image) => image.objectNumber) ?? []);
  }

  /** Plans (once per request) and writes the JBIG2 streams into doc; null when the pass is off. */
  apply(doc: mupdf.PDFDocument, facts: ReadonlyMap<number, ImageFacts>): Jbig2Stats | null {
    if (this.mode === "off") return null;
    const started = performance.now();
    const conversion = this.plan(doc, facts);
    if (conversion !== null) writeConversion(doc, conversion);
    this.cpuMs += performance.now() - started;
    return this.stats();
  }

  /** What apply would convert and save, without touching doc: for size projections. */
  measure(doc: mupdf.PDFDocument, facts: ReadonlyMap<number, ImageFacts>): Jbig2Stats | null {
    if (this.mode === "off") return null;
    const started = performance.now();
    this.plan(doc, facts);
    this.cpuMs += performance.now() - started;
    return this.stats();
  }

  private plan(doc: mupdf.PDFDocument, facts: ReadonlyMap<number, ImageFacts>): Conversion | null {
    if (!this.planned) {
      const candidates = [...facts.values()].filter(eligible).flatMap((image) => {
        const candidate = readCandidate(doc, image);
        return candidate === null ? [] : [atResolution(candidate, image, this.resolution)];
      });
      this.conversion = chooseConversion(candidates, this.mode);
      this.planned = true;
    }
    return this.conversion;
  }

  private stats(): Jbig2Stats {
    const conversion = this.conversion;
    return {
      images_converted: conversion?.images.length ?? 0,
      images_downsampled: conversion?.images.filter((image) => image.downsampled).length ?? 0,
      bytes_before: conversion?.images.reduce((total, image) => total + image.bytesBefore, 0) ?? 0,
      bytes_after: conversion === null ? 0 : conversionBytes(conversion),
      globals_bytes: conversion?.globals?.length ?? 0,
      symbols: conversion?.symbols ?? 0,
      cpu_ms: Math.round(this.cpuMs),
    };
  }
}

/** The facts the image rewriter sees: converted images count as bilevel, which it keeps. */
export function factsAfterJbig2(facts: ReadonlyMap<number, ImageFacts>, converted: ReadonlySet<number>): Map<number, ImageFacts> {
  return new Map([...facts].map(([objectNumber, image]) => [objectNumber, converted.has(objectNumber) ? { ...image, bitsPerComponent: 1 } : image]));
}
