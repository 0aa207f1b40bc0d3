// Transform geometry, which follows the edge pipeline rather than the optimize endpoint's
// resize plan (resize.ts): `inside` never enlarges, `cover` fills the box (enlarging if it must)
// and crops at the gravity, `auto` gravity is sharp's attention crop, `contain` pads with
// `padding` around the centred picture; a focal point's cover crop is focal-crop.ts's. An animation is cropped at the centre for `auto`: libvips
// has no content-aware crop of stacked frames. The edge/origin pixel tests hold the two tiers to it.
import sharp from "sharp";
import type { Fit, FocalPoint, Gravity } from "../../contracts/transform/token-values.ts";
import { coverAtFocus } from "./focal-crop.ts";
import type { ImageStep } from "./image-step.ts";

export interface FitBox {
  width?: number | undefined;
  height?: number | undefined;
  fit: Fit;
  gravity: Gravity;
  focus?: FocalPoint | undefined;
}

export type Padding = { r: number; g: number; b: number; alpha: number };

function position(gravity: Gravity, animated: boolean): string | number {
  if (gravity === "auto") return animated ? "centre" : sharp.strategy.attention;
  return gravity === "center" ? "centre" : gravity;
}

export function fitBox(box: FitBox, padding: Padding): ImageStep {
  return async (work) => {
    if (box.width === undefined && box.height === undefined) return;
    if (box.focus !== undefined && box.fit === "cover" && box.width !== undefined && box.height !== undefined) {
      await coverAtFocus(work, { width: box.width, height: box.height }, box.focus);
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
