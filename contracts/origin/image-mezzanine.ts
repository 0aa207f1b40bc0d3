// The edge-to-origin contract for a mezzanine: a high-quality downscale of an original the edge
// cannot decode within its memory budget (too many pixels, EXIF orientation, CMYK), made once
// per file by the origin and kept in R2, so the edge can make that file's small derivatives.
import { z } from "@hono/zod-openapi";
import { EDGE_MAX_SOURCE_PIXELS, EDGE_SOURCE_FORMATS } from "../limits/edge-budget.ts";

export const IMAGE_MEZZANINE_PATH = "/image/mezzanine";

// The mezzanine is a source for the edge pipeline, so it gets the edge's source budget.
export const MEZZANINE_MAX_PIXELS = EDGE_MAX_SOURCE_PIXELS;

// Nothing to choose: the origin decides size and encoding from the image itself.
export const originMezzanineSchema = z.object({}).strict();

export interface Size {
  width: number;
  height: number;
}

/** The mezzanine's size for an (upright) original: the largest same-shape size within budget. */
export function mezzanineSize(original: Size): Size {
  const scale = Math.sqrt(MEZZANINE_MAX_PIXELS / (original.width * original.height));
  if (scale >= 1) return { width: original.width, height: original.height };
  return { width: Math.max(1, Math.floor(original.width * scale)), height: Math.max(1, Math.floor(original.height * scale)) };
}

const side = z.number().int().positive();

export const originMezzanineReplySchema = z.object({
  format: z.enum(EDGE_SOURCE_FORMATS),
  width: side,
  height: side,
  // The original as a derivative sees it: upright size, and the format and alpha that decide the
  // output format of a transform without f_.
  original: z.object({ width: side, height: side, format: z.string(), hasAlpha: z.boolean() }),
});

export type OriginMezzanineMeta = z.infer<typeof originMezzanineReplySchema>;

export const imageMezzanineEndpoint = { path: IMAGE_MEZZANINE_PATH, options: originMezzanineSchema, reply: originMezzanineReplySchema } as const;
