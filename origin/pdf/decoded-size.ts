// Refuses a document whose Flate streams inflate past the limits (contracts/limits/pdf.ts) before
// mupdf decodes any of them. Node's zlib inflates each raw stream with a ceiling on its output,
// so a bomb costs the ceiling's worth of inflating (about a second), not its claimed size.
import { inflateSync } from "node:zlib";
import type * as mupdf from "mupdf";
import { PDF_DECODED_BYTES_PER_INPUT_BYTE, PDF_MAX_STREAM_DECODED_BYTES, PDF_MIN_DECODED_BUDGET_BYTES } from "../../contracts/limits/pdf.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { filtersOf, forEachObject } from "./pdf-objects.ts";

export function decodedBudgetBytes(inputBytes: number): number {
  return Math.max(PDF_MIN_DECODED_BUDGET_BYTES, inputBytes * PDF_DECODED_BYTES_PER_INPUT_BYTE);
}

/** Inflated size of zlib data up to `ceiling`; null when it would inflate beyond it. A damaged stream counts what inflated. */
function inflatedSize(raw: Uint8Array, ceiling: number): number | null {
  try {
    return inflateSync(raw, { maxOutputLength: ceiling, finishFlush: 2 /* Z_SYNC_FLUSH: a truncated stream gives what it has */ }).byteLength;
  } catch (error) {
    if (error instanceof RangeError) return null;
    return 0;
  }
}

export function checkDecodedSizes(doc: mupdf.PDFDocument, inputBytes: number): void {
  const budget = decodedBudgetBytes(inputBytes);
  let total = 0;
  forEachObject(doc, (objectNumber, ref) => {
    if (!ref.isStream() || filtersOf(ref)[0] !== "FlateDecode") return;
    const raw = ref.readRawStream();
    let size: number | null;
    try {
      size = inflatedSize(raw.asUint8Array(), Math.min(PDF_MAX_STREAM_DECODED_BYTES, budget - total) + 1);
    } finally {
      raw.destroy();
    }
    if (size === null || size > PDF_MAX_STREAM_DECODED_BYTES) {
      throw new ProblemError("payload_too_large", `Stream ${objectNumber} inflates to more than ${PDF_MAX_STREAM_DECODED_BYTES} bytes (a Flate bomb?); the limit is per stream.`, {
        extensions: { object_number: objectNumber, max_stream_decoded_bytes: PDF_MAX_STREAM_DECODED_BYTES },
      });
    }
    total += size;
    if (total > budget) {
      throw new ProblemError("payload_too_large", `The PDF's streams inflate to more than ${budget} bytes, its limit for this file size.`, {
        extensions: { max_decoded_bytes: budget },
      });
    }
  });
}
