// Rewrites the images of an open document in place, one object at a time so a
// shared image is re-encoded once, and at most two at once (IMAGES_IN_FLIGHT) so at
// most two decoded images are in memory.
// Encoding and writing are two steps: a size search (size-target.ts) encodes
// without writing, and every encoded stream goes into a cache shared by all runs
// of one request, so a later run at the same size and quality encodes nothing.
import type * as mupdf from "mupdf";
import { concurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import type { ImageFacts } from "./image-facts.ts";
import { chooseEncoding } from "./encode-image.ts";
import type { EncodingChoice } from "./encode-image.ts";
import { encodeFlate, encodeJpeg } from "./encode-pixels.ts";
import type { EncodedStream } from "./encode-pixels.ts";
import { jpegAlreadyAtQuality, planImage } from "./image-plan.ts";
import type { ImagePlan } from "./image-plan.ts";
import { FLOOR_MIN_QUALITY, floorQuality, magnificationOf } from "./perceptual-floor.ts";
import { decodeImagePixels } from "./raw-pixels.ts";
import type { PixelChannels, RawPixels } from "./raw-pixels.ts";
import { replaceImageStream } from "./replace-image-stream.ts";
import type { ReplacementImage } from "./replace-image-stream.ts";
import { resamplePixels } from "./resample-pixels.ts";
import { sizedImagePixels } from "./sized-pixels.ts";
import { imageQuality } from "./profiles.ts";
import type { ImageTargets } from "./profiles.ts";
import type { PdfImageRewrite } from "../../contracts/origin/pdf-compress.ts";

export type ImageRewriteStat = PdfImageRewrite;

/** A per-image departure from the request's targets: verify_quality raises quality or keeps the original. */
export type ImageOverride = { quality: number } | "original";

interface SizedChoice {
  choice: EncodingChoice;
  channels: PixelChannels;
}

/** Encoded streams and encoding choices of one request, reused across its runs. */
export interface EncodeCache {
  /** Kept from the start of an encode, so an encode begun ahead of its use is not run twice. */
  streams: Map<string, Promise<EncodedStream>>;
  /** By object and pixel size: which encoding the pixels call for, and how many channels they have. */
  choices: Map<string, SizedChoice>;
  /** By object, pixel size, floor and magnification: the lowest quality meeting the floor. */
  floorQualities: Map<string, number>;
  /** How many image or soft-mask encodes really ran. */
  encodes: number;
}

export function newEncodeCache(): EncodeCache {
  return { streams: new Map(), choices: new Map(), floorQualities: new Map(), encodes: 0 };
}

export interface EncodedRewrites {
  stats: ImageRewriteStat[];
  /** Stream bytes of every image object (soft masks and undrawn ones included) once the rewrites are written. */
  imageBytes: number;
  write: (doc: mupdf.PDFDocument) => void;
}

// Without downsampling, a lossy re-encode must save at least this share to be worth its loss.
const LOSSY_MIN_SAVING = 0.1;

/** Whether a new stream replaces the old one; projection applies the same rule to its estimates. */
export function worthReplacing(downsampled: boolean, filter: EncodedStream["filter"], newBytes: number, originalBytes: number): boolean {
  const limit = filter === "DCTDecode" && !downsampled ? originalBytes * (1 - LOSSY_MIN_SAVING) : originalBytes;
  return newBytes < limit;
}

function outputColorSpace(doc: mupdf.PDFDocument, image: ImageFacts, channels: PixelChannels, grayscale: boolean): ReplacementImage["colorSpace"] {
  const deviceByChannels = { 1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK" } as const;
  if (grayscale || image.colorSpace.family === "unknown") return deviceByChannels[channels];
  const dict = doc.newIndirect(image.objectNumber);
  const colorSpace = dict.get("ColorSpace");
  return image.colorSpace.family === "Indexed" ? colorSpace.get(1) : colorSpace;
}

/** Decodes and resamples one image on first use only: a fully cached image is never decoded. */
class LazyPixels {
  private pixels: Promise<RawPixels> | null = null;
  private readonly load: () => Promise<RawPixels>;

  constructor(load: () => Promise<RawPixels>) {
    this.load = load;
  }

  get(): Promise<RawPixels> {
    this.pixels ??= this.load();
    return this.pixels;
  }
}

function cachedStream(cache: EncodeCache, key: string, encode: () => Promise<EncodedStream>): Promise<EncodedStream> {
  const found = cache.streams.get(key);
  if (found !== undefined) return found;
  const stream = encode();
  cache.encodes++;
  cache.streams.set(key, stream);
  return stream;
}

async function sizedChoice(cache: EncodeCache, sizeKey: string, pixels: LazyPixels, lossyInput: boolean): Promise<SizedChoice> {
  let sized = cache.choices.get(sizeKey);
  if (sized === undefined) {
    const decoded = await pixels.get();
    sized = { choice: chooseEncoding(decoded, lossyInput), channels: decoded.channels };
    cache.choices.set(sizeKey, sized);
  }
  return sized;
}

/** The quality a perceptual floor gives the pixels (any, for pixels that stay lossless), searched once per request. */
async function cachedFloorQuality(cache: EncodeCache, sizeKey: string, pixels: LazyPixels, lossyInput: boolean, floor: number, magnification: number): Promise<number> {
  const key = `${sizeKey}:floor${floor}x${magnification}`;
  const found = cache.floorQualities.get(key);
  if (found !== undefined) return found;
  const { choice } = await sizedChoice(cache, sizeKey, pixels, lossyInput);
  const quality = await floorQuality(await pixels.get(), choice, floor, magnification);
  cache.floorQualities.set(key, quality);
  return quality;
}

/**
 * Whether an image kept at its size, stored lossy already (often a small, well-coded JPEG or JPX),
 * stays too large to be worth replacing even at the floor search's lowest quality: then no
 * search is spent on it.
 */
async function hopeless(cache: EncodeCache, sizeKey: string, pixels: LazyPixels, plan: RewritePlan, originalBytes: number): Promise<boolean> {
  if (plan.downsampled || !plan.lossyInput) return false;
  const { stream } = await encodeCached(cache, sizeKey, pixels, plan.lossyInput, FLOOR_MIN_QUALITY);
  return !worthReplacing(plan.downsampled, stream.filter, stream.bytes.byteLength, originalBytes);
}

function cachedFlate(cache: EncodeCache, sizeKey: string, pixels: LazyPixels): Promise<EncodedStream> {
  return cachedStream(cache, `${sizeKey}:flate`, async () => encodeFlate(await pixels.get()));
}

/** The same choice as encodeImagePixels, with each encoding cached: Flate does not depend on the quality. */
async function encodeCached(cache: EncodeCache, sizeKey: string, pixels: LazyPixels, lossyInput: boolean, quality: number): Promise<{ stream: EncodedStream; channels: PixelChannels }> {
  const { choice, channels } = await sizedChoice(cache, sizeKey, pixels, lossyInput);
  const flate = () => cachedFlate(cache, sizeKey, pixels);
  const jpeg = () => cachedStream(cache, `${sizeKey}:q${quality}`, async () => encodeJpeg(await pixels.get(), quality));
  if (choice === "flate") return { stream: await flate(), channels };
  if (choice === "jpeg") return { stream: await jpeg(), channels };
  const [lossless, lossy] = await Promise.all([flate(), jpeg()]);
  return { stream: lossless.bytes.byteLength <= lossy.bytes.byteLength ? lossless : lossy, channels };
}

async function encodeSoftMask(doc: mupdf.PDFDocument, cache: EncodeCache, softMask: ImageFacts, width: number, height: number): Promise<EncodedStream> {
  return cachedStream(cache, `${softMask.objectNumber}:${width}x${height}:mask`, async () =>
    encodeFlate(await resamplePixels(decodeImagePixels(doc, softMask.objectNumber, true), width, height)),
  );
}

type RewritePlan = Extract<ImagePlan, { action: "rewrite" }>;

/** What encoding one image came to: its new stream, or why it keeps its own. */
type ImageOutcome = { stream: EncodedStream; channels: PixelChannels; quality: number } | { kept: "not_smaller" | "jpeg_already_at_quality" | "decode_failed" };

// Images encoded at once. An image's work moves between this thread (mupdf's decode), the score
// pool's worker (the floor's metric) and sharp's threads (resize, encodes): one image at a time,
// a CPU profile of the corpus's compress found this thread idle a quarter of the time. With two,
// one image's decode runs while the other's probes are encoded or scored. Each image in flight
// holds its decoded pixels, so memory grows to about two images, not more.
const IMAGES_IN_FLIGHT = 2;

async function encodeImage(doc: mupdf.PDFDocument, image: ImageFacts, plan: RewritePlan, imageTargets: ImageTargets, grayscale: boolean, cache: EncodeCache): Promise<ImageOutcome> {
  const sizeKey = `${image.objectNumber}:${plan.width}x${plan.height}`;
  const pixels = new LazyPixels(() => sizedImagePixels(doc, image, plan.width, plan.height, grayscale));
  // An image drawn larger than the profile's resolution is judged as drawn (perceptual-floor.ts).
  const magnification = plan.downsampled ? 1 : magnificationOf(image.placement?.minDpi ?? null, imageTargets.targetDpi);
  try {
    if (imageTargets.perceptualFloor !== null && (await hopeless(cache, sizeKey, pixels, plan, image.bytes))) return { kept: "not_smaller" };
    // Lossless pixels that may stay lossless are Flate-encoded whatever quality the floor finds:
    // begun now, the encode runs on sharp's threads beside the floor's probes (the corpus's CMYK
    // image: 280 ms of Flate and 300 ms of search, one after the other before). A lossy input is
    // always JPEG-encoded, and may be kept without being decoded at all.
    if (!plan.lossyInput && (await sizedChoice(cache, sizeKey, pixels, plan.lossyInput)).choice !== "jpeg") cachedFlate(cache, sizeKey, pixels).catch(() => undefined);
    const quality = await imageQuality(imageTargets, (floor) => cachedFloorQuality(cache, sizeKey, pixels, plan.lossyInput, floor, magnification));
    if (jpegAlreadyAtQuality(image, plan, quality, grayscale)) return { kept: "jpeg_already_at_quality" };
    const { stream, channels } = await encodeCached(cache, sizeKey, pixels, plan.lossyInput, quality);
    if (!worthReplacing(plan.downsampled, stream.filter, stream.bytes.byteLength, image.bytes)) return { kept: "not_smaller" };
    return { stream, channels, quality };
  } catch {
    return { kept: "decode_failed" };
  }
}

/** Encodes every rewrite the targets call for, without touching the document. */
export async function encodeRewrites(
  doc: mupdf.PDFDocument,
  images: Map<number, ImageFacts>,
  targets: ImageTargets,
  cache: EncodeCache,
  overrides: ReadonlyMap<number, ImageOverride> = new Map(),
): Promise<EncodedRewrites> {
  const stats: ImageRewriteStat[] = [];
  const writes: Array<(doc: mupdf.PDFDocument) => void> = [];
  const streamBytes = new Map<number, number>();
  for (const image of images.values()) streamBytes.set(image.objectNumber, image.bytes);
  const rewrittenSoftMasks = new Set<number>();
  const planned: { image: ImageFacts; plan: RewritePlan; stat: ImageRewriteStat; imageTargets: ImageTargets }[] = [];
  for (const image of images.values()) {
    const override = overrides.get(image.objectNumber);
    const imageTargets = override === undefined || override === "original" ? targets : { ...targets, quality: override.quality, perceptualFloor: null };
    const plan = planImage(image, imageTargets);
    if (plan.action === "keep" && plan.reason === "soft_mask") continue;
    const stat: ImageRewriteStat = {
      object_number: image.objectNumber,
      pages: image.placement?.pages ?? [],
      before: { width: image.width, height: image.height, bytes: image.bytes, filters: image.filters, dpi: image.placement?.minDpi ?? null },
      after: null,
      kept_reason: plan.action === "keep" ? plan.reason : override === "original" ? "restored_for_quality" : null,
    };
    stats.push(stat);
    if (plan.action === "keep" || override === "original") continue;
    planned.push({ image, plan, stat, imageTargets });
  }
  const inFlight = concurrencyLimit(IMAGES_IN_FLIGHT);
  const outcomes = await Promise.all(planned.map(({ image, plan, imageTargets }) => inFlight(() => encodeImage(doc, image, plan, imageTargets, targets.grayscale, cache))));
  // Written in the document's order whatever order the encodes finished in, so an output does not depend on timing.
  for (const [index, { image, plan, stat }] of planned.entries()) {
    const outcome = outcomes[index]!;
    if ("kept" in outcome) {
      stat.kept_reason = outcome.kept;
      continue;
    }
    const { stream, channels, quality } = outcome;
    const softMask = image.softMask === null ? undefined : images.get(image.softMask);
    if (softMask !== undefined && plan.downsampled && !rewrittenSoftMasks.has(softMask.objectNumber)) {
      rewrittenSoftMasks.add(softMask.objectNumber);
      // Each axis scaled as the image's was, so a mask of the image's size gets its new size exactly.
      const width = Math.max(1, Math.round((softMask.width * plan.width) / image.width));
      const height = Math.max(1, Math.round((softMask.height * plan.height) / image.height));
      const maskStream = await encodeSoftMask(doc, cache, softMask, width, height);
      if (maskStream.bytes.byteLength < softMask.bytes) {
        streamBytes.set(softMask.objectNumber, maskStream.bytes.byteLength);
        writes.push((target) => replaceImageStream(target, softMask.objectNumber, { stream: maskStream, width, height, channels: 1, colorSpace: "DeviceGray" }));
      }
    }
    // mupdf un-blends /Matte from the colours it decodes, and those are what is written: a /Matte
    // left on the mask would have viewers un-blend them a second time.
    if (softMask !== undefined && image.softMaskMatte) writes.push((target) => target.newIndirect(softMask.objectNumber).delete("Matte"));
    streamBytes.set(image.objectNumber, stream.bytes.byteLength);
    writes.push((target) =>
      replaceImageStream(target, image.objectNumber, { stream, width: plan.width, height: plan.height, channels, colorSpace: outputColorSpace(target, image, channels, targets.grayscale) }),
    );
    const dpi = image.placement?.minDpi ?? null;
    const newDpi = dpi === null ? null : (dpi * plan.width) / image.width;
    stat.after = { width: plan.width, height: plan.height, bytes: stream.bytes.byteLength, filter: stream.filter, dpi: newDpi, quality: stream.filter === "DCTDecode" ? quality : null };
  }
  let imageBytes = 0;
  for (const bytes of streamBytes.values()) imageBytes += bytes;
  return { stats, imageBytes, write: (target) => writes.forEach((write) => write(target)) };
}

export async function rewriteImages(
  doc: mupdf.PDFDocument,
  images: Map<number, ImageFacts>,
  targets: ImageTargets,
  cache: EncodeCache = newEncodeCache(),
  overrides?: ReadonlyMap<number, ImageOverride>,
): Promise<EncodedRewrites> {
  const rewrites = await encodeRewrites(doc, images, targets, cache, overrides);
  rewrites.write(doc);
  return rewrites;
}
