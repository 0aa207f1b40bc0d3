// What a workbook image is, read from its own bytes: PNG or JPEG and its size in pixels. The
// request checks refuse anything else before any work; the writer sizes the picture by it.

export interface XlsxImageFacts {
  format: "png" | "jpeg";
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function uint16(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function uint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
}

function pngFacts(bytes: Uint8Array): XlsxImageFacts | null {
  // The IHDR chunk comes first: length, "IHDR", width, height.
  if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  const width = uint32(bytes, 16);
  const height = uint32(bytes, 20);
  return width > 0 && height > 0 ? { format: "png", width, height } : null;
}

// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegFacts(bytes: Uint8Array): XlsxImageFacts | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = uint16(bytes, at + 2);
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return null;
      const height = uint16(bytes, at + 5);
      const width = uint16(bytes, at + 7);
      return width > 0 && height > 0 ? { format: "jpeg", width, height } : null;
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

/** PNG or JPEG with a readable size, or null. */
export function readImageFacts(bytes: Uint8Array): XlsxImageFacts | null {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return pngFacts(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegFacts(bytes);
  return null;
}
