// What `format: "source"` (the default) answers for each source format, where the format alone
// decides it. The origin's encoder choice follows this; the CLI uses it to know an output's name
// before sending, so it can refuse an overwrite before anything is charged.
// Plain data with no schema import: the browser's URL builder resolves transform formats by it.
import type { OutputFormat } from "./transform/token-values.ts";

/** Every format an image source may be in; the origin's reply names one as `original_format`. */
export const IMAGE_SOURCE_FORMATS = ["jpeg", "png", "webp", "gif", "tiff", "avif", "heic", "jxl", "svg", "pdf"] as const;

/**
 * null where the content decides: a TIFF, HEIC or JPEG XL becomes JPEG as an opaque photo, PNG as a
 * flat graphic or with transparency; a GIF as `gifFamily` says. An SVG, and a PDF's page, is drawn into PNG.
 */
export const SOURCE_FAMILY = {
  jpeg: "jpeg",
  png: "png",
  webp: "webp",
  avif: "avif",
  gif: null,
  tiff: null,
  heic: null,
  jxl: null,
  svg: "png",
  pdf: "png",
} as const satisfies Record<(typeof IMAGE_SOURCE_FORMATS)[number], OutputFormat | null>;

/** A GIF kept animated becomes animated WebP (the one animated format encoded); a still one, or its first frame, lossless PNG. */
export function gifFamily(keepsAnimation: boolean): OutputFormat {
  return keepsAnimation ? "webp" : "png";
}
