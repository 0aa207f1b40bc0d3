// Projects, per profile, the size compress would reach and the quality it risks.
// The structure (everything but image rewrites) is measured by really stripping,
// subsetting and saving once; each image a profile would rewrite is decoded,
// resampled and sized with the same encoding choice, perceptual floor and acceptance rule as compress.
// Bilevel images are sized by really encoding them with JBIG2 (compress's default
// `jbig2: auto`), which every profile does alike.
import type * as mupdf from "mupdf";
import { PDF_FIXED_PROFILES } from "../../contracts/pdf-options.ts";
import type { PdfFixedProfile } from "../../contracts/pdf-options.ts";
import { encodeFlate } from "./encode-pixels.ts";
import { estimateEncodedSize } from "./estimate-encoded-size.ts";
import type { SizeEstimate } from "./estimate-encoded-size.ts";
import type { ImageFacts } from "./image-facts.ts";
import { chooseEncoding } from "./encode-image.ts";
import { jpegAlreadyAtQuality, planImage } from "./image-plan.ts";
import { floorQuality, magnificationOf } from "./perceptual-floor.ts";
import { factsAfterJbig2, Jbig2Images } from "./jbig2-images.ts";
import { defaultProfileTargets, imageQuality } from "./profiles.ts";
import type { ImageTargets } from "./profiles.ts";
import { imageRewriteRisk, worstRisk } from "./quality-risk.ts";
import type { QualityRisk } from "./quality-risk.ts";
import { decodeImagePixels } from "./raw-pixels.ts";
import type { RawPixels } from "./raw-pixels.ts";
import { resamplePixels } from "./resample-pixels.ts";
import { worthReplacing } from "./rewrite-images.ts";
import { sizedImagePixels } from "./sized-pixels.ts";
import type { PdfProfileProjection } from "../../contracts/origin/pdf-analyze.ts";

export type ProfileProjection = PdfProfileProjection;

/** The document saved with untouched images, and what zlib's best level saved per Flate stream in it. */
export interface StructureSize {
  bytes: number;
  flateSavedByObject: ReadonlyMap<number, number>;
}

interface ProfileTally {
  targets: ImageTargets;
  saved: number;
  rewritten: number;
  // Image and soft-mask streams whose savings count from their stored size.
  replaced: number[];
  risks: QualityRisk[];
  softMasks: Set<number>;
}

/** What resampling a soft mask with its image saves; compress keeps the old mask when the new one is larger. */
async function softMaskSaving(doc: mupdf.PDFDocument, softMask: ImageFacts, scale: number): Promise<number> {
  const pixels = decodeImagePixels(doc, softMask.objectNumber, true);
  const width = Math.max(1, Math.round(softMask.width * scale));
  const height = Math.max(1, Math.round(softMask.height * scale));
  const encoded = await encodeFlate(await resamplePixels(pixels, width, height));
  return Math.max(0, softMask.bytes - encoded.bytes.byteLength);
}

const LOSSLESS_SOURCE_QUALITY = 100;

async function tallyImage(doc: mupdf.PDFDocument, image: ImageFacts, images: Map<number, ImageFacts>, tallies: ProfileTally[]): Promise<void> {
  const plans = tallies.map((tally) => planImage(image, tally.targets));
  if (plans.every((plan) => plan.action === "keep")) return;
  const resampled = new Map<string, RawPixels>();
  const estimates = new Map<string, SizeEstimate>();
  const floorQualities = new Map<string, number>();
  for (const [index, plan] of plans.entries()) {
    const tally = tallies[index];
    if (plan.action === "keep" || tally === undefined) continue;
    const key = `${plan.width}x${plan.height}`;
    let pixels = resampled.get(key);
    if (pixels === undefined) {
      try {
        pixels = await sizedImagePixels(doc, image, plan.width, plan.height, false);
      } catch {
        return;
      }
      resampled.set(key, pixels);
    }
    const magnification = plan.downsampled ? 1 : magnificationOf(image.placement?.minDpi ?? null, tally.targets.targetDpi);
    const quality = await imageQuality(tally.targets, async (floor) => {
      const floorKey = `${key}:floor${floor}x${magnification}`;
      const found = floorQualities.get(floorKey) ?? (await floorQuality(pixels, chooseEncoding(pixels, plan.lossyInput), floor, magnification));
      floorQualities.set(floorKey, found);
      return found;
    });
    if (jpegAlreadyAtQuality(image, plan, quality, tally.targets.grayscale)) continue;
    const estimateKey = `${key}@${quality}`;
    const estimate = estimates.get(estimateKey) ?? (await estimateEncodedSize(pixels, plan.lossyInput, quality));
    estimates.set(estimateKey, estimate);
    if (!worthReplacing(plan.downsampled, estimate.filter, estimate.bytes, image.bytes)) continue;
    const softMask = image.softMask === null ? undefined : images.get(image.softMask);
    const maskSaving = softMask !== undefined && plan.downsampled && !tally.softMasks.has(softMask.objectNumber) ? await softMaskSaving(doc, softMask, plan.width / image.width) : 0;
    if (softMask !== undefined) tally.softMasks.add(softMask.objectNumber);
    tally.saved += image.bytes - estimate.bytes + maskSaving;
    tally.rewritten++;
    tally.replaced.push(image.objectNumber);
    if (maskSaving > 0 && softMask !== undefined) tally.replaced.push(softMask.objectNumber);
    const oldDpi = image.placement?.minDpi ?? 0;
    tally.risks.push(
      imageRewriteRisk({
        oldDpi,
        newDpi: (oldDpi * plan.width) / image.width,
        lossy: estimate.filter === "DCTDecode",
        sourceQuality: image.jpegQuality?.quality ?? LOSSLESS_SOURCE_QUALITY,
        quality,
        perceptualFloor: tally.targets.perceptualFloor,
      }),
    );
  }
}

/**
 * measureStructure saves the document as compress would with its images untouched
 * and returns the size; it runs after the images are sized because a garbage-
 * collecting save renumbers the objects of the open document. Its Flate pass shrinks
 * streams an image rewrite then replaces, whose savings were counted from their
 * stored size: that part is not counted twice.
 */
export async function projectProfiles(
  doc: mupdf.PDFDocument,
  images: Map<number, ImageFacts>,
  inputBytes: number,
  measureStructure: () => Promise<StructureSize>,
): Promise<Record<PdfFixedProfile, ProfileProjection>> {
  const tallies: ProfileTally[] = PDF_FIXED_PROFILES.map((profile) => ({ targets: defaultProfileTargets(profile), saved: 0, rewritten: 0, replaced: [], risks: [], softMasks: new Set<number>() }));
  // Profiles differ in their 1-bit resolution only, so each distinct one is encoded once.
  const jbig2ByDpi = new Map<number, { saving: number; converted: number[] }>();
  const convertedByAny = new Set<number>();
  for (const { targets } of tallies) {
    if (jbig2ByDpi.has(targets.bilevelDpi)) continue;
    const pass = new Jbig2Images("auto", { dpi: targets.bilevelDpi, threshold: targets.downsampleThreshold });
    const stats = pass.measure(doc, images);
    const converted = [...pass.converted()];
    jbig2ByDpi.set(targets.bilevelDpi, { saving: stats === null ? 0 : stats.bytes_before - stats.bytes_after, converted });
    for (const objectNumber of converted) convertedByAny.add(objectNumber);
  }
  // The image rewriter leaves bilevel images to the JBIG2 pass whatever it decided for them.
  const rewritable = factsAfterJbig2(images, convertedByAny);
  for (const image of rewritable.values()) await tallyImage(doc, image, rewritable, tallies);
  const structure = await measureStructure();
  const flateSaved = (objects: number[]) => objects.reduce((sum, objectNumber) => sum + (structure.flateSavedByObject.get(objectNumber) ?? 0), 0);
  const projection = {} as Record<PdfFixedProfile, ProfileProjection>;
  for (const [index, profile] of PDF_FIXED_PROFILES.entries()) {
    const tally = tallies[index];
    if (tally === undefined) continue;
    // Compress returns the original when it cannot make the file smaller.
    const jbig2 = jbig2ByDpi.get(tally.targets.bilevelDpi) ?? { saving: 0, converted: [] };
    const saved = tally.saved - flateSaved(tally.replaced) + jbig2.saving - flateSaved(jbig2.converted);
    const estimated = Math.min(inputBytes, Math.max(0, Math.round(structure.bytes - saved)));
    const rewritesKept = estimated < inputBytes;
    projection[profile] = {
      estimated_bytes: estimated,
      savings_bytes: inputBytes - estimated,
      savings_ratio: inputBytes === 0 ? 0 : (inputBytes - estimated) / inputBytes,
      quality_risk: rewritesKept ? worstRisk(tally.risks) : "none",
      images_rewritten: rewritesKept ? tally.rewritten + jbig2.converted.length : 0,
    };
  }
  return projection;
}
