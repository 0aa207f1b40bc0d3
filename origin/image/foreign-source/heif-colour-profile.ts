// A phone's HEIC says what its samples mean in a `colr` box (an ICC profile, usually Display P3).
// libheif's JavaScript build decodes the pixels but does not hand the profile back, so it is read
// from the container here: ISO BMFF boxes, meta → iprp → ipco → colr.
import { itemProperties } from "./heif-boxes.ts";

/**
 * The first ICC profile a `colr` box of the file carries, or null. HEIC's item properties are
 * shared by every image in the file; a phone writes one profile for its primary image and its
 * thumbnail alike.
 */
export function heifIccProfile(bytes: Uint8Array): Uint8Array | null {
  for (const box of itemProperties(bytes)) {
    if (box.type !== "colr" || box.end - box.start < 4) continue;
    const kind = String.fromCharCode(...bytes.subarray(box.start, box.start + 4));
    if (kind === "prof" || kind === "rICC") return bytes.slice(box.start + 4, box.end);
  }
  return null;
}
