// PDF/A and PDF/X claims: read from the XMP packet (attribute or element form,
// single or double quotes) and the Info dictionary, and removed when a caller
// accepts that the compressed output no longer conforms.
import type * as mupdf from "mupdf";
import { catalogOf } from "./pdf-objects.ts";
import type { PdfConformanceClaim } from "../../contracts/origin/pdf-analyze.ts";

export type ConformanceClaim = PdfConformanceClaim;

function xmpProperty(xmp: string, prefix: string, name: string): string | null {
  const attribute = new RegExp(`${prefix}:${name}\\s*=\\s*["']([^"']*)["']`).exec(xmp);
  if (attribute) return attribute[1] ?? null;
  const element = new RegExp(`<${prefix}:${name}>\\s*([^<]*?)\\s*</${prefix}:${name}>`).exec(xmp);
  return element ? (element[1] ?? null) : null;
}

function readXmp(doc: mupdf.PDFDocument): string | null {
  const metadata = catalogOf(doc).get("Metadata");
  if (!metadata.isStream()) return null;
  const buffer = metadata.readStream();
  try {
    return new TextDecoder().decode(buffer.asUint8Array());
  } finally {
    buffer.destroy();
  }
}

export function conformanceClaims(doc: mupdf.PDFDocument): ConformanceClaim[] {
  const claims: ConformanceClaim[] = [];
  const xmp = readXmp(doc);
  const pdfaPart = xmp === null ? null : xmpProperty(xmp, "pdfaid", "part");
  if (pdfaPart !== null) claims.push({ standard: "PDF/A", part: pdfaPart, conformance: xmp === null ? null : xmpProperty(xmp, "pdfaid", "conformance") });
  const infoVersion = doc.getTrailer().get("Info", "GTS_PDFXVersion");
  const pdfxVersion = (xmp === null ? null : xmpProperty(xmp, "pdfxid", "GTS_PDFXVersion")) ?? (infoVersion.isString() ? infoVersion.asString() : null);
  if (pdfxVersion !== null) {
    const infoConformance = doc.getTrailer().get("Info", "GTS_PDFXConformance");
    claims.push({ standard: "PDF/X", part: pdfxVersion, conformance: infoConformance.isString() ? infoConformance.asString() : null });
  }
  return claims;
}

const XMP_IDENTIFICATION = [
  /\s*<pdfaid:(\w+)>[^<]*<\/pdfaid:\1>/g,
  /\s*pdfaid:\w+\s*=\s*("[^"]*"|'[^']*')/g,
  /\s*<pdfxid:(\w+)>[^<]*<\/pdfxid:\1>/g,
  /\s*pdfxid:\w+\s*=\s*("[^"]*"|'[^']*')/g,
  /\s*xmlns:(pdfaid|pdfxid)\s*=\s*("[^"]*"|'[^']*')/g,
];

/** Removes the XMP identification, the PDF/X Info keys and the output intents. */
export function removeConformanceClaims(doc: mupdf.PDFDocument): void {
  const catalog = catalogOf(doc);
  const xmp = readXmp(doc);
  if (xmp !== null) {
    const stripped = XMP_IDENTIFICATION.reduce((text, pattern) => text.replace(pattern, ""), xmp);
    const metadata = catalog.get("Metadata");
    metadata.writeStream(new TextEncoder().encode(stripped));
    metadata.delete("Filter");
    metadata.delete("DecodeParms");
  }
  catalog.delete("OutputIntents");
  const info = doc.getTrailer().get("Info");
  if (info.isDictionary()) {
    info.delete("GTS_PDFXVersion");
    info.delete("GTS_PDFXConformance");
  }
}
