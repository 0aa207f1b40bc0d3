// Writes a re-encoded image into its existing object, so every page and form that
// references the object sees the new stream and a shared image is rewritten once.
import type * as mupdf from "mupdf";
import type { EncodedStream } from "./encode-pixels.ts";
import type { PixelChannels } from "./raw-pixels.ts";

export interface ReplacementImage {
  stream: EncodedStream;
  width: number;
  height: number;
  channels: PixelChannels;
  /** The colour space the new samples are in: an existing PDF value, or a device space by name. */
  colorSpace: mupdf.PDFObject | "DeviceGray" | "DeviceRGB" | "DeviceCMYK";
}

// Keys that describe the old encoding and would misread the new samples.
const STALE_KEYS = ["DecodeParms", "Decode", "SMaskInData", "Length1", "DL"];

export function replaceImageStream(doc: mupdf.PDFDocument, objectNumber: number, replacement: ReplacementImage): void {
  const ref = doc.newIndirect(objectNumber);
  const dict = ref;
  const colorSpace = typeof replacement.colorSpace === "string" ? doc.newName(replacement.colorSpace) : replacement.colorSpace;
  ref.writeRawStream(replacement.stream.bytes);
  for (const key of STALE_KEYS) dict.delete(key);
  // /Mask is ignored next to /SMask; a colour key would no longer match re-encoded samples anyway.
  if (!dict.get("SMask").isNull()) dict.delete("Mask");
  dict.put("Filter", doc.newName(replacement.stream.filter));
  dict.put("Width", replacement.width);
  dict.put("Height", replacement.height);
  dict.put("BitsPerComponent", 8);
  dict.put("ColorSpace", colorSpace);
  if (replacement.stream.invertedCmyk) dict.put("Decode", [1, 0, 1, 0, 1, 0, 1, 0]);
  if (replacement.stream.pngPredictor) {
    const parms = doc.newDictionary();
    parms.put("Predictor", 15);
    parms.put("Colors", replacement.channels);
    parms.put("BitsPerComponent", 8);
    parms.put("Columns", replacement.width);
    dict.put("DecodeParms", parms);
  }
}
