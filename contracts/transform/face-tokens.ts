// The grammar and folding of the face-aware tokens `z_` and `e_` (registry.ts declares them): a zoom
// changes only a cover crop centred on faces, and an effect on faces changes no fact f_json reports.
import { decimalIn, integerIn, TokenError } from "./token-grammar.ts";
import { FACE_GRAVITIES, faceBlurRange, faceEffectValues, pixelateRange, zoomRange, type FaceEffect, type Fit, type FocalPoint, type Gravity } from "./token-values.ts";

export const FACE_EFFECT_SPELLING = `blur_faces[:<strength ${faceBlurRange.min} to ${faceBlurRange.max}>] or pixelate_faces[:<block size ${pixelateRange.min} to ${pixelateRange.max}>]`;

export function faceEffectIn(value: string): FaceEffect {
  const [kind, amount, ...rest] = value.split(":");
  if (rest.length > 0 || !(faceEffectValues as readonly string[]).includes(kind!)) throw new TokenError(`must be ${FACE_EFFECT_SPELLING}`);
  if (amount === undefined) return { kind: kind as FaceEffect["kind"] };
  return kind === "blur_faces" ? { kind, amount: integerIn(amount, faceBlurRange) } : { kind: "pixelate_faces", amount: integerIn(amount, pixelateRange) };
}

export function faceEffectValue(effect: FaceEffect): string {
  return effect.amount === undefined ? effect.kind : `${effect.kind}:${effect.amount}`;
}

export function zoomIn(value: string): number {
  return decimalIn(value, zoomRange);
}

/** z_ zooms a cover crop centred on faces (g_face, g_faces, g_auto); elsewhere it changes nothing and folds away, as z_1 does. */
export function resolveZoom(zoom: number | undefined, fit: Fit, placed: { gravity: Gravity; focus?: FocalPoint }): number | undefined {
  if (zoom === undefined || zoom === zoomRange.min || fit !== "cover" || placed.focus !== undefined) return undefined;
  return FACE_GRAVITIES.includes(placed.gravity) ? zoom : undefined;
}
