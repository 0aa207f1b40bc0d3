// A cover crop centred on a focal point (transform `g_<x>x<y>`): the box's shape at the scale that
// fills it, placed so the point is at its centre, pushed back inside the picture where the point is
// nearer an edge than half the crop. sharp's cover takes only compass names and strategies, so the
// region is cut here and then scaled to the box.
import type { Size } from "../../contracts/image-orientation.ts";
import type { FocalPoint } from "../../contracts/transform/token-values.ts";
import { renderNow, type ImageWork } from "./image-step.ts";

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function focalRegion(picture: Size, box: Size, focus: FocalPoint): Region {
  const scale = Math.max(box.width / picture.width, box.height / picture.height);
  const width = Math.max(1, Math.min(picture.width, Math.round(box.width / scale)));
  const height = Math.max(1, Math.min(picture.height, Math.round(box.height / scale)));
  const place = (point: number, side: number, kept: number) => Math.round(Math.min(side - kept, Math.max(0, point * side - kept / 2)));
  return { left: place(focus.x, picture.width, width), top: place(focus.y, picture.height, height), width, height };
}

/**
 * The turn and mirror still pending on a still image are run first: sharp would mirror after its
 * pre-resize extract (though it turns before it), placing the crop on the unmirrored picture.
 * An animation's frames were turned and mirrored one by one already (eachFrame).
 */
export async function coverAtFocus(work: ImageWork, box: Size, focus: FocalPoint): Promise<void> {
  if (work.animation === null) await renderNow(work, (image) => image);
  work.image.extract(focalRegion(work.upright, box, focus)).resize({ width: box.width, height: box.height, fit: "fill" });
}
