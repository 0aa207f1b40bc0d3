// How browsers turn an unprofiled CMYK JPEG into RGB. Chromium and Firefox read the stored
// samples as Adobe's inverted CMYK (what Photoshop, ImageMagick and libjpeg write, with or
// without the APP14 marker) and multiply: R = C'·K'/255, where C' = 255 − C is the stored,
// inverted sample; G and B from M and Y alike. libjpeg has already honoured APP14's transform
// flag (YCCK to CMYK) by then, and libvips hands over ink amounts (255 = full ink), undoing the
// inversion, so here R = (255 − C)(255 − K)/255, truncated as Chromium truncates.

/**
 * Ink amounts, four samples a pixel, to three RGB samples a pixel, written over the front of
 * the same buffer (a 100 MP source would otherwise hold 300 MB more): the returned view.
 */
export function browserCmykToRgbInPlace(samples: Uint8Array): Uint8Array {
  const pixels = samples.length >> 2;
  for (let p = 0; p < pixels; p++) {
    const at = p * 4;
    const white = 255 - (samples[at + 3] ?? 0);
    const [c, m, y] = [samples[at] ?? 0, samples[at + 1] ?? 0, samples[at + 2] ?? 0];
    samples[p * 3] = ((255 - c) * white) / 255;
    samples[p * 3 + 1] = ((255 - m) * white) / 255;
    samples[p * 3 + 2] = ((255 - y) * white) / 255;
  }
  return samples.subarray(0, pixels * 3);
}
