// Decode, crop, resize and encode inside the isolate with the jSquash codecs, for sources small
// enough that the codecs' WASM memory plus the JS pixel buffers stay inside the edge budget
// (proven in edge-pipeline.test.ts). Everything else is the origin's.
import { ProblemError } from "../contracts/problems.ts";
import type { ResolvedTransform } from "../transform/canonical.ts";
import type { OutputFormat } from "../transform/tokens.ts";
import { decodePixels, encodePixels, resizePixels, type Pixels } from "./codecs.ts";
import { outputGeometry, type Region } from "./geometry.ts";
import type { ImageHeader } from "./image-header.ts";
import { oneAtATime } from "./one-at-a-time.ts";

// Measured in edge-pipeline.test.ts: at 1 MP the PNG and resize instances (which persist in
// the isolate, 37 MB) plus the heaviest run's decoder, encoder and JS buffers (49 MB) stay
// under 100 MB; the Workers isolate limit is 128 MB and the rest is the worker's own heap.
export const EDGE_MAX_SOURCE_PIXELS = 1_000_000;
// The resize instance persists and grows with its input, output and a float buffer of output
// width x input height; the AVIF encoder needs about 45 MB of WASM memory per megapixel (and
// seconds of CPU). Larger outputs are the origin's: the edge serves thumbnails and page images.
export const EDGE_MAX_OUTPUT_PIXELS = 500_000;

// Operations the jSquash pipeline has: downscaling, cover crops at a compass gravity, encoding.
// Blur, sharpen, rotation, EXIF orientation, padding and content-aware crops are sharp's.
export function edgeCanTransform(header: ImageHeader | null, op: ResolvedTransform): header is ImageHeader {
  if (header === null || header.orientation !== null) return false;
  if (header.width * header.height > EDGE_MAX_SOURCE_PIXELS) return false;
  if (op.blur !== undefined || op.sharpen !== undefined || op.rotate !== 0) return false;
  if (op.fit === "contain" || op.gravity === "auto") return false;
  const out = outputGeometry(header.width, header.height, op);
  // Enlarging grows the persistent resize instance past what the budget test measured.
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

export function transformAtEdge(source: Uint8Array, header: ImageHeader, op: ResolvedTransform, format: OutputFormat): Promise<EdgeOutput> {
  return oneAtATime(() => runPipeline(source, header, op, format));
}

async function runPipeline(source: Uint8Array, header: ImageHeader, op: ResolvedTransform, format: OutputFormat): Promise<EdgeOutput> {
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
  const geometry = outputGeometry(header.width, header.height, op);
  const cropped = geometry.crop ? crop(decoded, geometry.crop) : decoded;
  peak = Math.max(peak, source.byteLength + decoded.data.byteLength + (cropped === decoded ? 0 : cropped.data.byteLength));
  const sized =
    geometry.width === cropped.width && geometry.height === cropped.height ? cropped : await resizePixels(cropped, geometry.width, geometry.height);
  peak = Math.max(peak, source.byteLength + decoded.data.byteLength + cropped.data.byteLength + (sized === cropped ? 0 : sized.data.byteLength));
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
