// What the edge must know before it decodes a single pixel: the format, the stored size (for
// the memory budget), alpha (f_auto's legacy class picks PNG for it), whether an EXIF rotation
// is pending and whether a WebP is animated (the origin then does the work). Anything this
// cannot read is not refused here: it goes to the origin, whose decoder knows more formats and
// reports corrupt files as problems (a GIF, animated or not, always goes there).
import type { EdgeSourceFormat } from "../../contracts/limits/edge-budget.ts";

export interface ImageHeader {
  format: EdgeSourceFormat;
  width: number;
  height: number;
  hasAlpha: boolean;
  // EXIF orientation 2..8; 1, absent or invalid values mean none.
  orientation: number | null;
  // A four-component (CMYK or YCCK) JPEG: mozjpeg cannot turn it into RGB; sharp can, with a profile.
  cmyk: boolean;
  // An animated WebP (the VP8X animation flag). The edge never runs a frame loop: the origin keeps the frames.
  animated: boolean;
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** `extent`: whether `bytes` is the whole file or only its start (a truncated file then goes unnoticed). */
export function readImageHeader(bytes: Uint8Array, extent: "whole" | "start" = "whole"): ImageHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegHeader(bytes, view, extent);
    if (ascii(bytes, 1, 3) === "PNG" && ascii(bytes, 12, 4) === "IHDR") return pngHeader(bytes, view, extent);
    if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return webpHeader(bytes, view, extent);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  return null;
}

// The decoders fill what a cut file lacks instead of failing (mozjpeg a scan with grey, the PNG
// one a lost IEND), so a file held whole must end where its structure does; sharp refuses it then.
function pngHeader(bytes: Uint8Array, view: DataView, extent: "whole" | "start"): ImageHeader {
  const colorType = view.getUint8(25);
  // A tRNS chunk gives palette and truecolour images transparency; it precedes IDAT.
  let hasAlpha = colorType === 4 || colorType === 6;
  let ended = false;
  for (let at = 8; at + 8 <= bytes.length; ) {
    const type = ascii(bytes, at + 4, 4);
    if (type === "tRNS") hasAlpha = true;
    at += 12 + view.getUint32(at);
    if (type === "IEND") ended = at <= bytes.length;
    if (ended || (extent === "start" && type === "IDAT")) break;
  }
  if (extent === "whole" && !ended) throw new RangeError("truncated PNG");
  return { format: "png", width: view.getUint32(16), height: view.getUint32(20), hasAlpha, orientation: null, cmyk: false, animated: false };
}

function webpHeader(bytes: Uint8Array, view: DataView, extent: "whole" | "start"): ImageHeader {
  if (extent === "whole" && 8 + view.getUint32(4, true) > bytes.length) throw new RangeError("truncated WebP");
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8X") {
    const flags = view.getUint8(20);
    const width = 1 + (view.getUint8(24) | (view.getUint8(25) << 8) | (view.getUint8(26) << 16));
    const height = 1 + (view.getUint8(27) | (view.getUint8(28) << 8) | (view.getUint8(29) << 16));
    return { format: "webp", width, height, hasAlpha: (flags & 0x10) !== 0, orientation: null, cmyk: false, animated: (flags & 0x02) !== 0 };
  }
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return { format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, hasAlpha: ((bits >>> 28) & 1) === 1, orientation: null, cmyk: false, animated: false };
  }
  if (chunk === "VP8 ") {
    return { format: "webp", width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff, hasAlpha: false, orientation: null, cmyk: false, animated: false };
  }
  throw new RangeError("unknown WebP chunk");
}

const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegHeader(bytes: Uint8Array, view: DataView, extent: "whole" | "start"): ImageHeader {
  let orientation: number | null = null;
  for (let at = 2; at + 4 <= bytes.length; ) {
    if (bytes[at] !== 0xff) throw new RangeError("not a JPEG marker");
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker === 0xe1 && ascii(bytes, at + 4, 4) === "Exif") orientation = exifOrientation(view, at + 10);
    if (SOF_MARKERS.has(marker)) {
      if (extent === "whole" && !endsWithEoi(bytes)) throw new RangeError("truncated JPEG");
      return { format: "jpeg", width: view.getUint16(at + 7), height: view.getUint16(at + 5), hasAlpha: false, orientation, cmyk: view.getUint8(at + 9) === 4, animated: false };
    }
    at += 2 + length;
  }
  throw new RangeError("no JPEG frame header");
}

function endsWithEoi(bytes: Uint8Array): boolean {
  let end = bytes.length;
  while (end > 2 && bytes[end - 1] === 0) end--;
  return bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9;
}

// The orientation tag (0x0112) of IFD0 in the TIFF structure that starts at `tiff`.
function exifOrientation(view: DataView, tiff: number): number | null {
  const little = view.getUint16(tiff) === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (view.getUint16(entry, little) === 0x0112) {
      const value = view.getUint16(entry + 8, little);
      return value >= 2 && value <= 8 ? value : null;
    }
  }
  return null;
}
