// What a source really is, from its first bytes: extensions and declared types lie, and an
// HTML error page saved as photo.jpg is a common upload.
import { ProblemError } from "./problems/catalogue.ts";

export type SniffedFormat =
  | "jpeg"
  | "png"
  | "gif"
  | "webp"
  | "avif"
  | "heic"
  | "jxl"
  | "svg"
  | "tiff"
  | "bmp"
  | "pdf"
  | "xlsx"
  | "zip"
  | "html";

export type SniffedKind = "image" | "pdf" | "spreadsheet" | "archive" | "text";

export interface SniffedType {
  format: SniffedFormat;
  kind: SniffedKind;
  mime: string;
  // For messages: "a PNG image".
  label: string;
}

const TYPES: Record<SniffedFormat, SniffedType> = {
  jpeg: { format: "jpeg", kind: "image", mime: "image/jpeg", label: "a JPEG image" },
  png: { format: "png", kind: "image", mime: "image/png", label: "a PNG image" },
  gif: { format: "gif", kind: "image", mime: "image/gif", label: "a GIF image" },
  webp: { format: "webp", kind: "image", mime: "image/webp", label: "a WebP image" },
  avif: { format: "avif", kind: "image", mime: "image/avif", label: "an AVIF image" },
  heic: { format: "heic", kind: "image", mime: "image/heic", label: "a HEIC/HEIF image" },
  jxl: { format: "jxl", kind: "image", mime: "image/jxl", label: "a JPEG XL image" },
  svg: { format: "svg", kind: "image", mime: "image/svg+xml", label: "an SVG image" },
  tiff: { format: "tiff", kind: "image", mime: "image/tiff", label: "a TIFF image" },
  bmp: { format: "bmp", kind: "image", mime: "image/bmp", label: "a BMP image" },
  pdf: { format: "pdf", kind: "pdf", mime: "application/pdf", label: "a PDF document" },
  xlsx: {
    format: "xlsx",
    kind: "spreadsheet",
    mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    label: "an Excel spreadsheet (xlsx)",
  },
  zip: { format: "zip", kind: "archive", mime: "application/zip", label: "a ZIP archive" },
  html: { format: "html", kind: "text", mime: "text/html", label: "an HTML page" },
};

// Where a PDF header may start: readers tolerate leading junk, within this window.
const PDF_HEADER_WINDOW = 1024;
// The ZIP end-of-central-directory record sits within this many bytes of the end.
const ZIP_EOCD_WINDOW = 22 + 65535;

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

function indexOfAscii(bytes: Uint8Array, needle: string, from: number, to: number): number {
  const first = needle.charCodeAt(0);
  for (let i = from; i + needle.length <= to; i++) {
    if (bytes[i] === first && ascii(bytes, i, i + needle.length) === needle) return i;
  }
  return -1;
}

// Real ftyp boxes list a handful of brands; a hostile size must not make us read megabytes.
const FTYP_MAX_BYTES = 256;
const AVIF_BRANDS = new Set(["avif", "avis"]);
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);

// ISO-BMFF `ftyp` box: major brand, then compatible brands. AVIF wins when listed at all,
// because AVIF files commonly declare mif1 as major brand.
function sniffFtyp(bytes: Uint8Array): SniffedType | null {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== "ftyp") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxEnd = Math.min(view.getUint32(0), bytes.length, FTYP_MAX_BYTES);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(ascii(bytes, at, at + 4));
  if (brands.some((b) => AVIF_BRANDS.has(b))) return TYPES.avif;
  if (brands.some((b) => HEIF_BRANDS.has(b))) return TYPES.heic;
  return null;
}

// An xlsx is a ZIP whose central directory names xl/workbook.xml.
function zipEntryNames(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let eocd = bytes.length - 22; eocd >= Math.max(0, bytes.length - ZIP_EOCD_WINDOW); eocd--) {
    if (view.getUint32(eocd, true) !== 0x06054b50) continue;
    const count = view.getUint16(eocd + 10, true);
    let at = view.getUint32(eocd + 16, true);
    const names: string[] = [];
    for (let i = 0; i < count && at + 46 <= bytes.length && view.getUint32(at, true) === 0x02014b50; i++) {
      const nameLength = view.getUint16(at + 28, true);
      const extra = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      names.push(ascii(bytes, at + 46, Math.min(at + 46 + nameLength, bytes.length)));
      at += 46 + nameLength + extra;
    }
    return names;
  }
  return [];
}

/** Where text starts past a UTF-8 byte-order mark and white space. */
function textStart(bytes: Uint8Array): number {
  let start = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (start < bytes.length && (bytes[start] === 0x20 || (bytes[start]! >= 0x09 && bytes[start]! <= 0x0d))) start++;
  return start;
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  const start = textStart(bytes);
  const head = ascii(bytes, start, Math.min(start + 14, bytes.length)).toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html");
}

// An SVG may open with an XML declaration, comments or a doctype before its root; the root
// must come within this many bytes, as it does in every editor's output.
const SVG_ROOT_WINDOW = 4096;

function looksLikeSvg(bytes: Uint8Array): boolean {
  const start = textStart(bytes);
  if (bytes[start] !== 0x3c) return false;
  const head = ascii(bytes, start, Math.min(start + SVG_ROOT_WINDOW, bytes.length));
  // The first element that is not a declaration, comment or SVG doctype is the root.
  const root = /^(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE\s+svg\b[^>[]*(?:\[[\s\S]*?\])?\s*>\s*)*<([A-Za-z][\w:.-]*)/i.exec(head);
  return root?.[1]?.toLowerCase().replace(/^\w+:/, "") === "svg";
}

// JPEG XL: a bare codestream, or the ISO BMFF container with its own signature box.
function isJpegXl(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0xff, 0x0a]) || startsWith(bytes, [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]);
}

/** The format a stored file's content type names (the type its bytes were sniffed as when stored); null for any other. */
export function formatOfMime(mime: string): SniffedFormat | null {
  return Object.values(TYPES).find((type) => type.mime === mime)?.format ?? null;
}

export function sniffContentType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return TYPES.jpeg;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return TYPES.png;
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a")) return TYPES.gif;
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return TYPES.webp;
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return TYPES.tiff;
  // "BM" alone is too common; the DIB header size must be one of the defined ones.
  if (bytes.length >= 18 && startsWith(bytes, [0x42, 0x4d]) && [12, 40, 52, 56, 64, 108, 124].includes(bytes[14]! | (bytes[15]! << 8))) {
    return TYPES.bmp;
  }
  if (isJpegXl(bytes)) return TYPES.jxl;
  const ftyp = sniffFtyp(bytes);
  if (ftyp) return ftyp;
  if (indexOfAscii(bytes, "%PDF-", 0, Math.min(bytes.length, PDF_HEADER_WINDOW)) >= 0) return TYPES.pdf;
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return zipEntryNames(bytes).includes("xl/workbook.xml") ? TYPES.xlsx : TYPES.zip;
  }
  if (looksLikeSvg(bytes)) return TYPES.svg;
  if (looksLikeHtml(bytes)) return TYPES.html;
  return null;
}

// What each endpoint family decodes: sharp reads the first six, the origin's own steps HEIC, JPEG XL,
// SVG and PDF pages (origin/image/foreign-source/); nothing reads BMP.
const ACCEPTED = {
  // A PDF is an image one page at a time: the origin refuses one without `page` (415 naming it).
  image: {
    formats: ["jpeg", "png", "webp", "avif", "gif", "tiff", "heic", "jxl", "svg", "pdf"],
    takes: "/v1/image endpoints take JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC, JPEG XL or SVG images, and a PDF's page with `page`",
  },
  pdf: { formats: ["pdf"], takes: "/v1/pdf endpoints take PDF files" },
  stored: {
    formats: ["jpeg", "png", "webp", "avif", "gif", "tiff", "heic", "jxl", "svg", "pdf"],
    takes: "POST /v1/files stores JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC, JPEG XL or SVG images and PDF files",
  },
} as const satisfies Record<string, { formats: readonly SniffedFormat[]; takes: string }>;

export type ExpectedKind = keyof typeof ACCEPTED;

function hexPrefix(bytes: Uint8Array): string {
  return [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
}

// Returns what the bytes are when the endpoint family accepts them; a 415 naming both otherwise.
export function expectKind(bytes: Uint8Array, kind: ExpectedKind): SniffedType {
  const sniffed = sniffContentType(bytes);
  const accepted: readonly SniffedFormat[] = ACCEPTED[kind].formats;
  if (sniffed && accepted.includes(sniffed.format)) return sniffed;
  const found = sniffed
    ? `this is ${sniffed.label}`
    : bytes.length === 0
      ? "the source is empty"
      : `the source is not a recognised file type (it starts with ${hexPrefix(bytes)})`;
  throw new ProblemError("unsupported_media_type", `${found}; ${ACCEPTED[kind].takes}`, {
    extensions: { detected_type: sniffed?.mime ?? null, expected_kind: kind },
  });
}
