// What `format: "source"` (the default) answers for each source format, where the format alone
// decides it. The origin's encoder choice follows this; the CLI uses it to know an output's name
// before sending, so it can refuse an overwrite before anything is charged.
import type { ImageOutputFormat } from "./image-options.ts";
import type { IMAGE_SOURCE_FORMATS } from "./origin/image-process.ts";

/**
 * null where the content decides: a TIFF becomes JPEG as an opaque photo, PNG as a flat graphic or
 * with transparency; a GIF becomes PNG when still, WebP when animated and kept whole.
 */
export const SOURCE_FAMILY = {
  jpeg: "jpeg",
  png: "png",
  webp: "webp",
  avif: "avif",
  gif: null,
  tiff: null,
} as const satisfies Record<(typeof IMAGE_SOURCE_FORMATS)[number], ImageOutputFormat | null>;
