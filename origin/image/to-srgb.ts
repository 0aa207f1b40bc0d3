// The one colour rule. Output never carries the source's ICC profile, so pixels must already be
// sRGB: sharp imports an embedded profile (wide gamut, CMYK) or its built-in CMYK profile, and
// the 8-bit target interpretation drops 16-bit depth. Opaque greyscale stays one channel
// (smaller files, no colour cast); sharp's greyscale target drops alpha, so greyscale with
// alpha goes to sRGB.
import type { ImageStep } from "./image-step.ts";

export const toSrgb: ImageStep = (work) => {
  work.image.toColourspace(work.source.is_greyscale && !work.source.has_alpha ? "b-w" : "srgb");
};
