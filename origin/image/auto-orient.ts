// EXIF orientation 5..8 swap the axes; sharp's autoOrient applies all eight
// (the mirrored ones included) to the pixels and drops the tag.
import type { Sharp } from "sharp";

export interface Size {
  width: number;
  height: number;
}

export interface OrientResult {
  /** The EXIF orientation applied to the pixels, null when none was. */
  orientation_applied: number | null;
  size: Size;
}

export function autoOrient(image: Sharp, stored: Size, orientation: number | null, enabled: boolean): OrientResult {
  const { width, height } = stored;
  if (!enabled || orientation === null) return { orientation_applied: null, size: { width, height } };
  image.autoOrient();
  const swapsAxes = orientation >= 5;
  return { orientation_applied: orientation, size: swapsAxes ? { width: height, height: width } : { width, height } };
}
