// Decode, crop, resize and encode inside the isolate with the jSquash codecs, for sources small
// enough that the codecs' WASM memory plus the JS pixel buffers stay inside the edge budget
// (proven in edge-pipeline.test.ts). Everything else is the origin's.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { FixedQualityTransform, ResolvedTransform } from "../../contracts/transform/registry.ts";
import { edgeAppliesAll } from "../../contracts/transform/registry.ts";
import { DEFAULT_JPEG_BACKGROUND, type OutputFormat } from "../../contracts/transform/token-values.ts";
import { decodePixels, encodePixels, resizePixels, type Pixels } from "./codecs.ts";
import { EDGE_MAX_OUTPUT_PIXELS, EDGE_MAX_SOURCE_PIXELS } from "../../contracts/limits/edge-budget.ts";
import { geometryOnDownscale, type Region, type Size } from "./geometry.ts";
import type { ImageHeader } from "./image-header.ts";
import { oneAtATime } from "./one-at-a-time.ts";

/**
 * Whether the jSquash pipeline can make `op` from this source: every token on the registry's edge
 * allow-list (contracts/transform/registry.ts: downscaling, cover crops at a compass gravity,
 * encoding at a fixed quality), from a source it reads upright (EXIF orientation and CMYK are
 * sharp's). `frame` is the original's upright size when the source is its mezzanine (the geometry
 * refers to the original); by default the source itself.
 */
export function edgeCanTransform(header: ImageHeader | null, op: ResolvedTransform, frame?: Size): header is ImageHeader {
  if (header === null || header.orientation !== null || header.cmyk) return false;
  if (header.width * header.height > EDGE_MAX_SOURCE_PIXELS) return false;
  if (!edgeAppliesAll(op)) return false;
  const out = geometryOnDownscale(header, frame ?? header, op);
  // Enlarging grows the persistent resize instance past what the budget test measured, and
  // from a mezzanine it would lose detail the original has.
  const kept = out.crop ?? header;
  if (out.width > kept.width || out.height > kept.height) return false;
  return out.width * out.height <= EDGE_MAX_OUTPUT_PIXELS;
}

export interface EdgeOutput {
  bytes: Uint8Array;
  format: OutputFormat;
  width: number;
  height: number;
  // The most JS-side bytes (source, pixels, output) held at once, for the memory budget.
  peakBufferBytes: number;
}

export function transformAtEdge(source: Uint8Array, header: ImageHeader, op: FixedQualityTransform, format: OutputFormat, frame?: Size): Promise<EdgeOutput> {
  return oneAtATime(() => runPipeline(source, header, op, format, frame ?? header));
}

async function runPipeline(source: Uint8Array, header: ImageHeader, op: FixedQualityTransform, format: OutputFormat, frame: Size): Promise<EdgeOutput> {
  let decoded: Pixels;
  try {
    decoded = await decodePixels(header.format, source);
  } catch (error) {
    throw new ProblemError("image_unreadable", `The ${header.format} image is corrupt or truncated (${String(error)}). Not charged.`);
  }
  if (decoded.width !== header.width || decoded.height !== header.height) {
    throw new ProblemError("image_unreadable", `The ${header.format} header says ${header.width}x${header.height}, the pixels are ${decoded.width}x${decoded.height}.`);
  }
  let peak = source.byteLength + decoded.data.byteLength;
  const geometry = geometryOnDownscale(header, frame, op);
  const cropped = geometry.crop ? crop(decoded, geometry.crop) : decoded;
  peak = Math.max(peak, source.byteLength + decoded.data.byteLength + (cropped === decoded ? 0 : cropped.data.byteLength));
  const sized =
    geometry.width === cropped.width && geometry.height === cropped.height ? cropped : await resizePixels(cropped, geometry.width, geometry.height);
  peak = Math.max(peak, source.byteLength + decoded.data.byteLength + cropped.data.byteLength + (sized === cropped ? 0 : sized.data.byteLength));
  // JPEG has no alpha: flattened onto bg_'s colour or white, as the origin does, not left to
  // whatever colour the transparent pixels happen to carry.
  if (format === "jpeg" && header.hasAlpha) flattenOnto(sized, op.background ?? DEFAULT_JPEG_BACKGROUND);
  const bytes = await encodePixels(format, sized, op.quality);
  peak = Math.max(peak, source.byteLength + decoded.data.byteLength + cropped.data.byteLength + sized.data.byteLength + bytes.byteLength);
  return { bytes, format, width: sized.width, height: sized.height, peakBufferBytes: peak };
}

function crop(pixels: Pixels, region: Region): Pixels {
  const data = new Uint8ClampedArray(region.width * region.height * 4);
  const rowBytes = region.width * 4;
  for (let y = 0; y < region.height; y++) {
    const start = ((region.top + y) * pixels.width + region.left) * 4;
    data.set(pixels.data.subarray(start, start + rowBytes), y * rowBytes);
  }
  return { data, width: region.width, height: region.height };
}

function flattenOnto(pixels: Pixels, rrggbb: string): void {
  const colour = [0, 2, 4].map((at) => Number.parseInt(rrggbb.slice(at, at + 2), 16));
  const { data } = pixels;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3]!;
    if (alpha === 255) continue;
    for (let channel = 0; channel < 3; channel++) data[i + channel] = (data[i + channel]! * alpha + colour[channel]! * (255 - alpha) + 127) / 255;
    data[i + 3] = 255;
  }
}
