// The `faces` step (after the geometry tokens, before the colour ones and the resize): finds the
// faces when a token needs them, then applies `e_blur_faces` or `e_pixelate_faces` to each face's
// box plus a margin, leaving every other pixel as it was. A face gravity reads what it found at the fit.
import sharp, { type Sharp } from "sharp";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { DEFAULT_FACE_BLUR, FACE_MARGIN, type FaceEffect } from "../../../contracts/transform/token-values.ts";
import type { Size } from "../../../contracts/image-orientation.ts";
import type { ImageStep } from "../image-step.ts";
import type { DetectedFace } from "./face-detector.ts";
import { needsFaces, type CallOptions, type FaceSearch } from "./face-search.ts";

export interface PixelRegion {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A face's box grown by `margin` of its size on each side, in whole pixels of `picture`, within it. */
export function faceRegion(face: DetectedFace, picture: Size, margin = FACE_MARGIN): PixelRegion {
  const left = Math.max(0, Math.floor((face.x - face.width * margin) * picture.width));
  const top = Math.max(0, Math.floor((face.y - face.height * margin) * picture.height));
  const right = Math.min(picture.width, Math.ceil((face.x + face.width * (1 + margin)) * picture.width));
  const bottom = Math.min(picture.height, Math.ceil((face.y + face.height * (1 + margin)) * picture.height));
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

export function facesStep(options: Pick<CallOptions, "gravity" | "effect">, faces: FaceSearch): ImageStep {
  return async (work) => {
    if (!needsFaces(options)) return;
    if (work.animation !== null) {
      // A face gravity on an animation crops at the centre, as g_auto does; an effect must not be skipped silently.
      if (options.effect === undefined) return;
      throw new ProblemError("unprocessable", "Faces are searched in still images, and every frame of this animation is kept: add anim_false to use its first frame.");
    }
    const found = await faces.search(work);
    if (options.effect !== undefined && found.length > 0) await applyEffect(work, options.effect, found);
  };
}

async function applyEffect(work: Parameters<ImageStep>[0], effect: FaceEffect, found: DetectedFace[]): Promise<void> {
  const { data, info } = await work.image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  for (const face of found) {
    const region = faceRegion(face, info);
    const shorter = Math.min(face.width * info.width, face.height * info.height);
    const patch = await changedPatch(sharp(data, { raw }).extract(region), region, effect, shorter);
    const rowBytes = region.width * info.channels;
    for (let row = 0; row < region.height; row++) {
      patch.copy(data, ((region.top + row) * info.width + region.left) * info.channels, row * rowBytes, (row + 1) * rowBytes);
    }
  }
  work.image = sharp(data, { raw });
}

async function changedPatch(patch: Sharp, region: PixelRegion, effect: FaceEffect, shorter: number): Promise<Buffer> {
  if (effect.kind === "blur_faces") {
    const sigma = Math.max(0.3, (((effect.amount ?? DEFAULT_FACE_BLUR) / 100) * shorter) / 2);
    return patch.blur(sigma).raw({ depth: "uchar" }).toBuffer();
  }
  const block = effect.amount ?? Math.max(2, Math.round(shorter / 10));
  const small = await patch
    .resize(Math.max(1, Math.round(region.width / block)), Math.max(1, Math.round(region.height / block)), { fit: "fill", kernel: "linear" })
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  return sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: small.info.channels } })
    .resize(region.width, region.height, { fit: "fill", kernel: "nearest" })
    .raw({ depth: "uchar" })
    .toBuffer();
}
