// trim_'s rule, in one place for the trim step (trim.ts) and for a drawing made larger so that
// what the trim keeps still fills the box (foreign-source/drawn-for-trim.ts): libvips finds the
// box of what differs from the top-left pixel by more than the tolerance.
import type { Sharp } from "sharp";

interface TrimBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** libvips' threshold is in channel units (0 to 255 for 8-bit pixels); the token's is a percentage. */
function thresholdOf(tolerance: number): number {
  return (tolerance * 255) / 100;
}

/** The box a still picture keeps at trim_<tolerance>, and its pixels cut to it. */
export async function trimmedPicture(picture: Sharp, tolerance: number) {
  const trimmed = await picture.trim({ threshold: thresholdOf(tolerance) }).raw().toBuffer({ resolveWithObject: true });
  // libvips reports the box's corner as the offset of the trimmed picture: negative.
  const box: TrimBox = { left: -(trimmed.info.trimOffsetLeft ?? 0), top: -(trimmed.info.trimOffsetTop ?? 0), width: trimmed.info.width, height: trimmed.info.height };
  return { box, trimmed };
}

/** libvips needs 3x3 pixels to tell a border from the rest. */
export function trimmable(size: { width: number; height: number }): boolean {
  return size.width >= 3 || size.height >= 3;
}
