// Rewrites the images of an open document in place, one object at a time so a
// shared image is re-encoded once and at most one decoded image is in memory.
import type * as mupdf from "mupdf";
import type { ImageFacts } from "./image-facts.ts";
import { encodeImagePixels } from "./encode-image.ts";
import { encodeFlate } from "./encode-pixels.ts";
import type { EncodedStream } from "./encode-pixels.ts";
import { planImage } from "./image-plan.ts";
import type { KeepReason } from "./image-plan.ts";
import { decodeImagePixels } from "./raw-pixels.ts";
import type { RawPixels } from "./raw-pixels.ts";
import { replaceImageStream } from "./replace-image-stream.ts";
import type { ReplacementImage } from "./replace-image-stream.ts";
import { resamplePixels } from "./resample-pixels.ts";
import type { ImageTargets } from "./profiles.ts";

export interface ImageRewriteStat {
  object_number: number;
  pages: number[];
  before: { width: number; height: number; bytes: number; filters: string[]; dpi: number | null };
  after: { width: number; height: number; bytes: number; filter: string; dpi: number | null } | null;
  kept_reason: KeepReason | "not_smaller" | "decode_failed" | null;
}

// Without downsampling, a lossy re-encode must save at least this share to be worth its loss.
const LOSSY_MIN_SAVING = 0.1;

/** Whether a new stream replaces the old one; projection applies the same rule to its estimates. */
export function worthReplacing(downsampled: boolean, filter: EncodedStream["filter"], newBytes: number, originalBytes: number): boolean {
  const limit = filter === "DCTDecode" && !downsampled ? originalBytes * (1 - LOSSY_MIN_SAVING) : originalBytes;
  return newBytes < limit;
}

function outputColorSpace(doc: mupdf.PDFDocument, image: ImageFacts, pixels: RawPixels, grayscale: boolean): ReplacementImage["colorSpace"] {
  const deviceByChannels = { 1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK" } as const;
  if (grayscale || image.colorSpace.family === "unknown") return deviceByChannels[pixels.channels];
  const dict = doc.newIndirect(image.objectNumber);
  const colorSpace = dict.get("ColorSpace");
  return image.colorSpace.family === "Indexed" ? colorSpace.get(1) : colorSpace;
}

async function rewriteSoftMask(doc: mupdf.PDFDocument, softMask: ImageFacts, width: number, height: number): Promise<void> {
  const pixels = await resamplePixels(decodeImagePixels(doc, softMask.objectNumber, true), width, height);
  const stream = await encodeFlate(pixels);
  const matte = !doc.newIndirect(softMask.objectNumber).get("Matte").isNull();
  // A mask with /Matte must keep its image's dimensions, so it is written even when larger.
  if (stream.bytes.byteLength >= softMask.bytes && !matte) return;
  replaceImageStream(doc, softMask.objectNumber, { stream, width, height, channels: 1, colorSpace: "DeviceGray" });
}

export async function rewriteImages(doc: mupdf.PDFDocument, images: Map<number, ImageFacts>, targets: ImageTargets): Promise<ImageRewriteStat[]> {
  const stats: ImageRewriteStat[] = [];
  const rewrittenSoftMasks = new Set<number>();
  for (const image of images.values()) {
    const plan = planImage(image, targets);
    if (plan.action === "keep" && plan.reason === "soft_mask") continue;
    const dpi = image.placement?.minDpi ?? null;
    const stat: ImageRewriteStat = {
      object_number: image.objectNumber,
      pages: image.placement?.pages ?? [],
      before: { width: image.width, height: image.height, bytes: image.bytes, filters: image.filters, dpi },
      after: null,
      kept_reason: plan.action === "keep" ? plan.reason : null,
    };
    stats.push(stat);
    if (plan.action === "keep") continue;
    let pixels: RawPixels;
    try {
      pixels = await resamplePixels(decodeImagePixels(doc, image.objectNumber, targets.grayscale), plan.width, plan.height);
    } catch {
      stat.kept_reason = "decode_failed";
      continue;
    }
    const stream = await encodeImagePixels(pixels, plan.lossyInput, targets.quality);
    if (!worthReplacing(plan.downsampled, stream.filter, stream.bytes.byteLength, image.bytes)) {
      stat.kept_reason = "not_smaller";
      continue;
    }
    const softMask = image.softMask === null ? undefined : images.get(image.softMask);
    if (softMask !== undefined && plan.downsampled && !rewrittenSoftMasks.has(softMask.objectNumber)) {
      rewrittenSoftMasks.add(softMask.objectNumber);
      const scale = plan.width / image.width;
      await rewriteSoftMask(doc, softMask, Math.max(1, Math.round(softMask.width * scale)), Math.max(1, Math.round(softMask.height * scale)));
    }
    replaceImageStream(doc, image.objectNumber, {
      stream,
      width: plan.width,
      height: plan.height,
      channels: pixels.channels,
      colorSpace: outputColorSpace(doc, image, pixels, targets.grayscale),
    });
    const newDpi = dpi === null ? null : (dpi * plan.width) / image.width;
    stat.after = { width: plan.width, height: plan.height, bytes: stream.bytes.byteLength, filter: stream.filter, dpi: newDpi };
  }
  return stats;
}
