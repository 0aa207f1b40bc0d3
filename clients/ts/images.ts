// The browser entry (`@pixelpress/client/images`): transform URLs, srcset, <img>/<picture>
// attributes and placeholders. It reaches only plain data in contracts/, with no zod and no Node
// built-in (the boundary check plants both), so a page bundle stays small; signing is in server.ts.
export { PixelPressError, type Problem } from "./api-error.ts";
export { createImageUrls, type ImageUrls } from "./images/image-urls.ts";
export type { ImgAttributes, ImgOptions, PictureAttributes, PictureOptions, PictureSource } from "./images/img-attributes.ts";
export type { SrcsetOptions } from "./images/srcset.ts";
export { blurProps, placeholderFor, placeholderStyle, type ImagePlaceholder } from "./images/placeholder.ts";
export type { Transform, TransformOptions } from "./images/transform-tokens.ts";
export type { ImageUrlConfig } from "./images/transform-url.ts";
