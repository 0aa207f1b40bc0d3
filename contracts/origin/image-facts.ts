// What `f_json` answers: the source's facts, as the origin reads them with sharp, and the size the
// rest of the transform would give. The origin writes this body; the edge stores and serves it
// like any derivative and documents it with this schema.
import { z } from "@hono/zod-openapi";

export const imageFactsSchema = z
  .object({
    width: z.number().int().positive().openapi({ description: "Stored width of the first frame or page, before the EXIF orientation." }),
    height: z.number().int().positive().openapi({ description: "Stored height of the first frame or page, before the EXIF orientation." }),
    format: z.string().openapi({ example: "jpeg", description: "What the source is, from its bytes (jpeg, png, webp, gif, avif, tiff, heic, jxl, svg, pdf)." }),
    orientation: z.number().int().min(1).max(8).openapi({ description: "The EXIF orientation tag, 1 (upright) when the source has none." }),
    frames: z.number().int().positive().openapi({ description: "Frames of an animated GIF or WebP; 1 for a still image." }),
    has_alpha: z.boolean(),
    dominant_color: z.string().regex(/^#[0-9a-f]{6}$/).openapi({ example: "#3a6b8c", description: "The colour most of the upright sRGB pixels share (pixels under half opacity do not count)." }),
    output: z
      .object({ width: z.number().int().positive(), height: z.number().int().positive() })
      .openapi({ description: "The size the transform's other tokens would give the image." }),
    faces: z
      .array(
        z
          .object({ x: z.number().int().nonnegative(), y: z.number().int().nonnegative(), width: z.number().int().positive(), height: z.number().int().positive(), score: z.number().min(0).max(1) })
          .strict(),
      )
      .openapi({ description: "The faces found in the upright picture (first frame or page), in its pixels from the top left, largest first; score is the detector's confidence, 0 to 1." }),
    gravity: z.string().openapi({ example: "face", description: "The gravity the transform's crop applied: `face`, `faces` or `auto` when the detection placed it, the `center` a face gravity falls back to without a face, else what `g_` asked (a focal point as `<x>x<y>`)." }),
  })
  .strict()
  .openapi("ImageFacts");

export type ImageFacts = z.infer<typeof imageFactsSchema>;
