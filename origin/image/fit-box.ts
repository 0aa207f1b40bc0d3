// Transform geometry, which follows the edge pipeline rather than the optimize endpoint's
// resize plan (resize.ts): `inside` never enlarges, `cover` fills the box (enlarging if it must)
// and crops at the gravity, `auto` gravity is sharp's attention crop, `contain` pads with
// `padding` around the centred picture; a focal point's cover crop is focal-crop.ts's, a face's
// faces/face-crop.ts's (without a face, `face` and `faces` crop at the centre, `auto` is sharp's). An animation is cropped at the centre for `auto`: libvips
// has no content-aware crop of stacked frames. The edge/origin pixel tests hold the two tiers to it.
import sharp from "sharp";
import { FACE_GRAVITIES, type Fit, type FocalPoint, type Gravity } from "../../contracts/transform/token-values.ts";
import { coverAtFaces, facesFor } from "./faces/face-crop.ts";
import type { FaceSearch } from "./faces/face-search.ts";
import { coverAtFocus } from "./focal-crop.ts";
import type { ImageStep } from "./image-step.ts";

export interface FitBox {
  width?: number | undefined;
  height?: number | undefined;
  fit: Fit;
  gravity: Gravity;
  focus?: FocalPoint | undefined;
  zoom?: number | undefined;
}

export type Padding = { r: number; g: number; b: number; alpha: number };

function position(gravity: Gravity, animated: boolean): string | number {
  if (gravity === "auto") return animated ? "centre" : sharp.strategy.attention;
  return gravity === "center" || gravity === "face" || gravity === "faces" ? "centre" : gravity;
}

/** `faces`: what the faces step found, read by a face gravity. */
export function fitBox(box: FitBox, padding: Padding, faces: Pick<FaceSearch, "found"> | null = null): ImageStep {
  return async (work) => {
    if (box.width === undefined && box.height === undefined) return;
    if (box.focus !== undefined && box.fit === "cover" && box.width !== undefined && box.height !== undefined) {
      await coverAtFocus(work, { width: box.width, height: box.height }, box.focus);
      return;
    }
    const placing = facesFor(box.gravity, faces?.found ?? []);
    if (FACE_GRAVITIES.includes(box.gravity) && box.fit === "cover" && box.width !== undefined && box.height !== undefined && placing.length > 0) {
      await coverAtFaces(work, { width: box.width, height: box.height }, placing, box.zoom);
      return;
    }
    work.image.resize({
      width: box.width,
      height: box.height,
      fit: box.fit,
      position: position(box.gravity, work.animation !== null),
      withoutEnlargement: box.fit === "inside",
      background: padding,
    });
  };
}
