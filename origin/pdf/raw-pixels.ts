// Decoded image samples outside the WASM heap: tightly packed, 8 bits per
// component, no alpha. Gray, RGB and CMYK are the only layouts the rewriter writes.
import * as mupdf from "mupdf";

export type PixelChannels = 1 | 3 | 4;

export interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: PixelChannels;
}

/** Copies a pixmap's samples out of the WASM heap, dropping its alpha channel and row padding. */
export function pixelsFromPixmap(pixmap: mupdf.Pixmap): RawPixels {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const components = pixmap.getNumberOfComponents();
  const alpha = pixmap.getAlpha();
  const channels = components - alpha;
  if (channels !== 1 && channels !== 3 && channels !== 4) throw new Error(`unsupported pixmap layout: ${components} components`);
  const samples = pixmap.getPixels();
  const data = new Uint8Array(width * height * channels);
  if (alpha === 0 && stride === width * channels) {
    data.set(samples.subarray(0, data.length));
  } else {
    for (let y = 0; y < height; y++) {
      const row = y * stride;
      for (let x = 0; x < width; x++) {
        for (let c = 0; c < channels; c++) data[(y * width + x) * channels + c] = samples[row + x * components + c] ?? 0;
      }
    }
  }
  return { data, width, height, channels };
}

/**
 * Decodes an image object to raw pixels with mupdf (which applies Decode arrays,
 * expands Indexed, reduces 16-bit and decodes JPX and CCITT), optionally as gray.
 */
export function decodeImagePixels(doc: mupdf.PDFDocument, objectNumber: number, grayscale: boolean): RawPixels {
  const image = doc.loadImage(doc.newIndirect(objectNumber));
  const pixmap = image.toPixmap();
  try {
    if (!grayscale || pixmap.getNumberOfComponents() - pixmap.getAlpha() === 1) return pixelsFromPixmap(pixmap);
    const gray = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceGray, false);
    try {
      return pixelsFromPixmap(gray);
    } finally {
      gray.destroy();
    }
  } finally {
    pixmap.destroy();
    image.destroy();
  }
}
