// How browsers turn an unprofiled CMYK JPEG into RGB. Chromium and Firefox read the stored
// samples as Adobe's inverted CMYK (what Photoshop, ImageMagick and libjpeg write, with or
// without the APP14 marker) and multiply: R = C'·K'/255, where C' = 255 − C is the stored,
// inverted sample; G and B from M and Y alike. libjpeg has already honoured APP14's transform
// flag (YCCK to CMYK) by then, and libvips hands over ink amounts (255 = full ink), undoing the
// inversion, so here R = (255 − C)(255 − K)/255, truncated as Chromium truncates.

/** Ink amounts, four samples a pixel, to three RGB samples a pixel. */
export function browserCmykToRgb(ink: Uint8Array): Uint8Array {
  const pixels = ink.length >> 2;
  const rgb = new Uint8Array(pixels * 3);
  for (let p = 0; p < pixels; p++) {
    const at = p * 4;
    const white = 255 - (ink[at + 3] ?? 0);
    for (let c = 0; c < 3; c++) rgb[p * 3 + c] = (((255 - (ink[at + c] ?? 0)) * white) / 255) | 0;
  }
  return rgb;
}
