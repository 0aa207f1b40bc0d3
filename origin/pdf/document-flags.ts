// Properties of a document that decide what compress may do to it.
import type * as mupdf from "mupdf";
import { conformanceClaims } from "./conformance.ts";
import { catalogOf, forEachObject, latin1, nameOf } from "./pdf-objects.ts";
import { signedFieldNames } from "./signatures.ts";
import type { PdfDocumentFlags } from "../../contracts/origin/pdf-analyze.ts";

export type DocumentFlags = PdfDocumentFlags;

const LINEARIZED_SEARCH_BYTES = 2048;

function countFields(doc: mupdf.PDFDocument): number {
  const fields = catalogOf(doc).get("AcroForm", "Fields");
  return fields.isArray() ? fields.length : 0;
}

function hasJavaScript(doc: mupdf.PDFDocument): boolean {
  if (!catalogOf(doc).get("Names", "JavaScript").isNull()) return true;
  let found = false;
  forEachObject(doc, (_, value) => {
    if (!found && value.isDictionary() && (nameOf(value.get("S")) === "JavaScript" || !value.get("JS").isNull())) found = true;
  });
  return found;
}

export function readDocumentFlags(doc: mupdf.PDFDocument, input: Uint8Array): DocumentFlags {
  const catalog = catalogOf(doc);
  const signatureFields = signedFieldNames(doc);
  const markInfo = catalog.get("MarkInfo", "Marked");
  const encrypted = !doc.getTrailer().get("Encrypt").isNull();
  return {
    encrypted,
    encryption: encrypted ? (doc.getMetaData("encryption") ?? null) : null,
    signed: signatureFields.length > 0,
    signature_fields: signatureFields,
    conformance: conformanceClaims(doc),
    output_intents: catalog.get("OutputIntents").isArray() && catalog.get("OutputIntents").length > 0,
    forms: { acroform: countFields(doc) > 0, xfa: !catalog.get("AcroForm", "XFA").isNull(), fields: countFields(doc) },
    javascript: hasJavaScript(doc),
    embedded_files: Object.keys(doc.getEmbeddedFiles()).length,
    tagged: !catalog.get("StructTreeRoot").isNull() || (markInfo.isBoolean() && markInfo.asBoolean()),
    linearized: latin1(input.subarray(0, LINEARIZED_SEARCH_BYTES)).includes("/Linearized"),
  };
}
