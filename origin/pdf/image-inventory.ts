// Lists the image XObjects of a document with the facts read from their
// dictionaries, and loads each one so drawn images can be matched by pointer.
import type * as mupdf from "mupdf";
import { filtersOf, forEachObject, isImageStream, nameOf, numberOf, rawStreamLength } from "./pdf-objects.ts";
import type { PdfColorspace, PdfColorspaceFamily } from "../../contracts/origin/pdf-analyze.ts";

export type ColorSpaceFamily = PdfColorspaceFamily;

export type ColorSpaceInfo = PdfColorspace;

export interface PdfImageObject {
  objectNumber: number;
  width: number;
  height: number;
  bitsPerComponent: number;
  colorSpace: ColorSpaceInfo;
  filters: string[];
  bytes: number;
  softMask: number | null;
  /** The soft mask has /Matte: the samples are stored pre-blended with its colour. */
  softMaskMatte: boolean;
  /** A colour-key (/Mask array) or stencil (/Mask stream) mask. */
  hasMask: boolean;
  isStencilMask: boolean;
  /** JPX with its own alpha channel (/SMaskInData), which the rewriter would drop. */
  alphaInData: boolean;
  /** Object numbers of images that use this one as their soft mask. */
  softMaskOf: number[];
}

const FAMILIES = new Set<string>(["DeviceGray", "DeviceRGB", "DeviceCMYK", "CalGray", "CalRGB", "Lab", "ICCBased", "Indexed", "Separation", "DeviceN"]);
const ABBREVIATIONS: Record<string, ColorSpaceFamily> = { G: "DeviceGray", RGB: "DeviceRGB", CMYK: "DeviceCMYK", I: "Indexed" };
const DEVICE_COMPONENTS: Partial<Record<ColorSpaceFamily, number>> = { DeviceGray: 1, CalGray: 1, DeviceRGB: 3, CalRGB: 3, Lab: 3, DeviceCMYK: 4, Indexed: 1, Separation: 1 };

function familyOf(name: string | null): ColorSpaceFamily {
  if (name === null) return "unknown";
  if (FAMILIES.has(name)) return name as ColorSpaceFamily;
  return ABBREVIATIONS[name] ?? "unknown";
}

function describeColorSpace(cs: mupdf.PDFObject, depth = 0): ColorSpaceInfo {
  if (depth > 4) return { family: "unknown", components: 0, base: null };
  if (!cs.isArray()) {
    const family = familyOf(nameOf(cs));
    return { family, components: DEVICE_COMPONENTS[family] ?? 0, base: null };
  }
  const family = familyOf(nameOf(cs.get(0)));
  switch (family) {
    case "ICCBased": {
      const n = numberOf(cs.get(1, "N")) ?? 0;
      const alternate = cs.get(1, "Alternate");
      const deviceName: ColorSpaceFamily = n === 1 ? "DeviceGray" : n === 4 ? "DeviceCMYK" : "DeviceRGB";
      const base: ColorSpaceInfo = alternate.isNull() ? { family: deviceName, components: n, base: null } : describeColorSpace(alternate, depth + 1);
      return { family, components: n, base };
    }
    case "Indexed":
      return { family, components: 1, base: describeColorSpace(cs.get(1), depth + 1) };
    case "DeviceN":
      return { family, components: cs.get(1).isArray() ? cs.get(1).length : 0, base: null };
    default:
      return { family, components: DEVICE_COMPONENTS[family] ?? 0, base: null };
  }
}

export function listImageObjects(doc: mupdf.PDFDocument): Map<number, PdfImageObject> {
  const images = new Map<number, PdfImageObject>();
  forEachObject(doc, (objectNumber, value) => {
    if (!isImageStream(value)) return;
    const isStencilMask = value.get("ImageMask").isBoolean() && value.get("ImageMask").asBoolean();
    const softMask = value.get("SMask");
    const mask = value.get("Mask");
    images.set(objectNumber, {
      objectNumber,
      width: numberOf(value.get("Width")) ?? 0,
      height: numberOf(value.get("Height")) ?? 0,
      bitsPerComponent: isStencilMask ? 1 : (numberOf(value.get("BitsPerComponent")) ?? 0),
      colorSpace: isStencilMask ? { family: "unknown", components: 0, base: null } : describeColorSpace(value.get("ColorSpace")),
      filters: filtersOf(value),
      bytes: rawStreamLength(value),
      softMask: softMask.isIndirect() ? softMask.asIndirect() : null,
      softMaskMatte: softMask.isStream() && !softMask.get("Matte").isNull(),
      hasMask: !mask.isNull(),
      isStencilMask,
      alphaInData: (numberOf(value.get("SMaskInData")) ?? 0) > 0,
      softMaskOf: [],
    });
  });
  for (const image of images.values()) {
    if (image.softMask !== null) images.get(image.softMask)?.softMaskOf.push(image.objectNumber);
  }
  return images;
}
