// Next.js custom loader: `images: { loader: "custom", loaderFile: "./pixelpress-loader.ts" }` in
// next.config, where the loader file's default export is the function this returns. Next calls
// it once per srcset width with `{ src, width, quality }` (quality only when the <Image> has one).
// With `defaultOrigin`, `<Image src="/hero.jpg">` is served from that origin unchanged.
import { transformUrl, type ImageUrlConfig } from "../images/transform-url.ts";
import type { TransformOptions } from "../images/transform-tokens.ts";
import { rounded, sourceOf } from "./framework-values.ts";

export interface NextImageLoaderProps {
  src: string;
  width: number;
  quality?: number;
}

export type NextImageLoader = (props: NextImageLoaderProps) => string;

export interface NextLoaderOptions extends ImageUrlConfig {
  /** Tokens for every image; Next sets the width and quality. Defaults to `{ format: "auto" }`. */
  transform?: Omit<TransformOptions, "width" | "height" | "quality" | "dpr">;
}

export function createNextLoader({ transform = { format: "auto" }, ...config }: NextLoaderOptions): NextImageLoader {
  return ({ src, width, quality }) =>
    transformUrl(config, sourceOf(config, src, "Next.js"), { ...transform, width: rounded(width, "width"), quality: rounded(quality, "quality") });
}
