// The edge-to-origin contract for an image's placeholder: the source bytes in, the placeholder as
// the framed meta out (the payload is empty). The placeholder is the public ImagePlaceholder as it
// is, so GET /v1/files/{id}/placeholder and `placeholder: true` on optimize pass it on unchanged.
import { z } from "@hono/zod-openapi";

export const IMAGE_PLACEHOLDER_PATH = "/image/placeholder";

/** The LQIP's longest side: a data URL this small inlines into HTML without a second request. */
export const LQIP_MAX_SIDE = 16;

export const imagePlaceholderSchema = z
  .object({
    thumbhash: z.string().openapi({ description: "ThumbHash of the upright sRGB image, base64 (decode with thumbhash's `thumbHashToRGBA`; keeps alpha and aspect ratio)", example: "3OcRJYB4d3h/iIeHeEh3eIhw+j3A" }),
    blurhash: z.string().openapi({ description: "BlurHash with 4×3 components (decode with blurhash's `decode`); alpha is ignored", example: "LEHV6nWB2yk8pyo0adR*.7kCMdnj" }),
    dominant_color: z.string().regex(/^#[0-9a-f]{6}$/).openapi({ description: "The most frequent colour, as #rrggbb", example: "#a1b2c3" }),
    lqip: z
      .string()
      .startsWith("data:image/webp;base64,")
      .openapi({
        description: `A blurred WebP at most ${LQIP_MAX_SIDE} px on its longest side, as a data URL: ready for \`placeholder="blur"\` / \`blurDataURL\`, stretched to width × height by the page`,
        example: "data:image/webp;base64,UklGRlIAAABXRUJQVlA4IEYAAAAwAgCdASoQAAsAAUAmJaQAA3AA/v02aAA=",
      }),
    width: z.number().int().positive().openapi({ description: "Upright width of the image the placeholder stands for (EXIF orientation applied)" }),
    height: z.number().int().positive(),
  })
  .openapi("ImagePlaceholder", { description: "What a page shows while the image loads, and the image's size so the layout does not shift." });

export const imagePlaceholderOptionsSchema = z.object({}).strict();

export const imagePlaceholderEndpoint = {
  path: IMAGE_PLACEHOLDER_PATH,
  options: imagePlaceholderOptionsSchema,
  reply: imagePlaceholderSchema,
} as const;

export type ImagePlaceholder = z.infer<typeof imagePlaceholderSchema>;
