// What the native HEIC decoder needs to know before it starts: how many pixels the file declares
// (the limit is checked from the container, before libheif allocates one), whether its pictures
// are what a phone writes (8-bit 4:2:0 YCbCr, no alpha), which the fast path hands over as planes,
// and how those planes map to RGB (the nclx colour box; libheif's default without one).
import { boxes, child, itemProperties, metaBox } from "./heif-boxes.ts";

export interface YcbcrMatrix {
  /** Red's and blue's weights in luma (H.273's Kr and Kb). */
  kr: number;
  kb: number;
  fullRange: boolean;
}

export interface HeifLayout {
  /** The largest image the file declares (ispe), in pixels. */
  pixels: number;
  /** Every coded picture is 8-bit 4:2:0 and nothing carries alpha. */
  phonePlanes: boolean;
  /** How its samples become RGB; null for a matrix the fast path does not convert. */
  matrix: YcbcrMatrix | null;
}

// H.273 matrix_coefficients → (Kr, Kb): 1 BT.709, 5 and 6 BT.601, 9 BT.2020 non-constant luminance.
const MATRICES: Record<number, [number, number]> = { 1: [0.2126, 0.0722], 5: [0.299, 0.114], 6: [0.299, 0.114], 9: [0.2627, 0.0593] };
// libheif's nclx default when the file has no colour box: BT.601, full range.
const DEFAULT_MATRIX: YcbcrMatrix = { kr: 0.299, kb: 0.114, fullRange: true };

const text = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

function nclxMatrix(bytes: Uint8Array, colr: { start: number; end: number }): YcbcrMatrix | null {
  if (colr.end - colr.start < 11) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset + colr.start);
  const weights = MATRICES[view.getUint16(8)];
  return weights ? { kr: weights[0], kb: weights[1], fullRange: (bytes[colr.start + 10]! & 0x80) !== 0 } : null;
}

export function heifLayout(bytes: Uint8Array): HeifLayout {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pixels = 0;
  let phonePlanes = true;
  let matrix: YcbcrMatrix | null = DEFAULT_MATRIX;
  for (const box of itemProperties(bytes)) {
    const size = box.end - box.start;
    if (box.type === "ispe" && size >= 12) pixels = Math.max(pixels, view.getUint32(box.start + 4) * view.getUint32(box.start + 8));
    // hvcC: chroma_format_idc in byte 16 (1 is 4:2:0), bit depths less 8 in bytes 17 and 18.
    if (box.type === "hvcC" && (size < 19 || (bytes[box.start + 16]! & 3) !== 1 || (bytes[box.start + 17]! & 7) !== 0 || (bytes[box.start + 18]! & 7) !== 0)) {
      phonePlanes = false;
    }
    if (box.type === "auxC" && /alpha|auxid:1\b/.test(text(bytes, box.start + 4, box.end))) phonePlanes = false;
    if (box.type === "colr" && text(bytes, box.start, box.start + 4) === "nclx") matrix = nclxMatrix(bytes, box);
  }
  return { pixels, phonePlanes, matrix };
}

function primaryItem(bytes: Uint8Array, meta: { start: number; end: number }): number | null {
  const pitm = child(bytes, meta, "pitm", 4);
  if (!pitm || pitm.end - pitm.start < 6) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return bytes[pitm.start] === 0 ? view.getUint16(pitm.start + 4) : view.getUint32(pitm.start + 4);
}

/**
 * A copy in which every item but the primary image is marked hidden (infe flag 1), so libheif's
 * tool decodes the primary only, not each picture of a burst. Tiles, thumbnails and alpha planes
 * stay reachable through their references; hiding changes only what counts as a top-level image.
 */
export function withPrimaryOnly(bytes: Uint8Array): Uint8Array {
  const meta = metaBox(bytes);
  const primary = meta && primaryItem(bytes, meta);
  const iinf = meta && child(bytes, meta, "iinf", 4);
  if (!iinf || primary == null) return bytes;
  // A copy in its own buffer (a Buffer's slice() would share its pool's).
  const copy = new Uint8Array(bytes);
  const view = new DataView(copy.buffer);
  // iinf is a full box: its entry count is 16 bits in version 0, 32 bits after.
  const entries = iinf.start + 4 + (bytes[iinf.start] === 0 ? 2 : 4);
  for (const infe of boxes(bytes, entries, iinf.end)) {
    if (infe.type !== "infe" || infe.end - infe.start < 8) continue;
    const version = bytes[infe.start]!;
    if (version < 2) continue;
    const id = version === 2 ? view.getUint16(infe.start + 4) : view.getUint32(infe.start + 4);
    if (id !== primary) copy[infe.start + 3]! |= 1;
  }
  return copy;
}
