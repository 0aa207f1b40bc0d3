// A cover crop placed by faces (`g_face`: the largest; `g_faces` and `g_auto`: the box around all):
// the box's shape at the scale that fills it, as a focal crop is, centred on the faces and pushed
// back inside the picture; `z_` shrinks it towards them, never tighter than the faces plus a margin.
import type { Size } from "../../../contracts/image-orientation.ts";
import { FACE_MARGIN, type Gravity } from "../../../contracts/transform/token-values.ts";
import { renderNow, type ImageWork } from "../image-step.ts";
import type { DetectedFace } from "./face-detector.ts";
import type { PixelRegion } from "./faces-step.ts";

/** The faces a gravity centres on: the largest for `face`, every one for `faces` and `auto`. */
export function facesFor(gravity: Gravity, found: DetectedFace[]): DetectedFace[] {
  return gravity === "face" ? found.slice(0, 1) : found;
}

/** The region of `picture` (pixels) to scale to `box`, around the faces (fractions of the picture). */
export function faceCropRegion(picture: Size, box: Size, faces: DetectedFace[], zoom = 1): PixelRegion {
  const left = Math.min(...faces.map((face) => face.x)) * picture.width;
  const top = Math.min(...faces.map((face) => face.y)) * picture.height;
  const right = Math.max(...faces.map((face) => face.x + face.width)) * picture.width;
  const bottom = Math.max(...faces.map((face) => face.y + face.height)) * picture.height;
  const aspect = box.width / box.height;
  const scale = Math.max(box.width / picture.width, box.height / picture.height);
  const cover = { width: box.width / scale, height: box.height / scale };
  // The tightest region of the box's shape holding the faces and their margin: how far z_ may zoom.
  const heldWidth = Math.max((right - left) * (1 + 2 * FACE_MARGIN), (bottom - top) * (1 + 2 * FACE_MARGIN) * aspect);
  const width = Math.max(1, Math.round(Math.min(cover.width, Math.max(cover.width / zoom, heldWidth))));
  const height = Math.max(1, Math.min(picture.height, Math.round(width / aspect)));
  const kept = Math.min(picture.width, width);
  const place = (centre: number, side: number, size: number) => Math.round(Math.min(side - size, Math.max(0, centre - size / 2)));
  return { left: place((left + right) / 2, picture.width, kept), top: place((top + bottom) / 2, picture.height, height), width: kept, height };
}

/** Cuts the region and scales it to the box; a pending turn and mirror are run first, as for a focal crop. */
export async function coverAtFaces(work: ImageWork, box: Size, faces: DetectedFace[], zoom: number | undefined): Promise<void> {
  await renderNow(work, (image) => image);
  work.image.extract(faceCropRegion(work.upright, box, faces, zoom)).resize({ width: box.width, height: box.height, fit: "fill" });
}
