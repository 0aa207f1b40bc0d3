// The box an output is asked to fill, known before the source is decoded: an SVG or a PDF page is
// drawn at that size rather than enlarged after, and a HEIC may decode at half its size, as libjpeg
// does for a JPEG (sharp's shrink-on-load), when the whole picture is resized into the box.
import type { Size } from "../../../contracts/image-orientation.ts";

export interface RasterTarget {
  width?: number | undefined;
  height?: number | undefined;
  /**
   * Nothing cuts the picture before it is resized into the box (no crop, trim or face crop; a
   * quarter turn is already in the box's sides), so the output is the whole picture scaled down.
   */
  whole?: boolean;
  /** trim_'s tolerance, when the pipeline trims the picture's border before the resize (drawn-for-trim.ts). */
  trim?: number | undefined;
}

/**
 * Whether the picture at half its size still covers the box on every side asked, so a decoder may
 * deliver it halved: the output is then resized down from the halved picture, as from a JPEG
 * libjpeg decoded at half size, its sides rounded from the halved ones (a pixel apart at most).
 */
export function halfSizeCovers(target: RasterTarget, picture: Size): boolean {
  if (target.whole !== true || (target.width === undefined && target.height === undefined)) return false;
  const fits = (asked: number | undefined, side: number) => asked === undefined || asked <= Math.floor(side / 2);
  return fits(target.width, picture.width) && fits(target.height, picture.height);
}
