// Astro external image service: the default export of the module named by
// `image.service.entrypoint`, with the PixelPress config in `image.service.config`. The astro
// package is too large to install for its types, so the part of its interface this service
// implements (ExternalImageService, ImageTransform, SrcSetValue, as documented in Astro's Image
// Service API reference) is declared here.
import { transformInvalid } from "../images/transform-error.ts";
import { transformOptionNames, type TransformOptions } from "../images/transform-tokens.ts";
import { transformUrl, type ImageUrlConfig } from "../images/transform-url.ts";
import { backgroundOf, rounded, sourceOf } from "./framework-values.ts";

export interface AstroImageMetadata {
  src: string;
  width: number;
  height: number;
  format: string;
}

export interface AstroImageTransform {
  src: AstroImageMetadata | string;
  width?: number;
  height?: number;
  widths?: number[];
  densities?: (number | `${number}x`)[];
  quality?: number | "low" | "mid" | "high" | "max";
  format?: string;
  fit?: string;
  position?: string;
  [attribute: string]: unknown;
}

export interface AstroImageConfig<T> {
  service: { entrypoint: string; config: T };
}

export interface AstroSrcSetValue {
  transform: AstroImageTransform;
  descriptor?: string;
  attributes?: Record<string, unknown>;
}

export interface AstroExternalImageService<T> {
  getURL(options: AstroImageTransform, imageConfig: AstroImageConfig<T>): string;
  getSrcSet(options: AstroImageTransform, imageConfig: AstroImageConfig<T>): AstroSrcSetValue[];
  getHTMLAttributes(options: AstroImageTransform, imageConfig: AstroImageConfig<T>): Record<string, unknown>;
}

// Astro's own presets, the numbers its sharp service uses for them.
const qualityPresets = { low: 25, mid: 50, high: 80, max: 100 } as const;

// `fit` takes CSS object-fit values: the image is resized so the browser's object-fit shows it
// as asked. `none` (never resize) has no transform.
const fits: Record<string, TransformOptions["fit"]> = { cover: "cover", fill: "fill", contain: "inside", "scale-down": "inside" };

// CSS object-position keywords in either order, as compass gravity.
const positions: Record<string, TransformOptions["gravity"]> = {
  center: "center",
  top: "north",
  bottom: "south",
  left: "west",
  right: "east",
  "left top": "northwest",
  "right top": "northeast",
  "bottom left": "southwest",
  "bottom right": "southeast",
  "center top": "north",
  "bottom center": "south",
  "center left": "west",
  "center right": "east",
};

// Options Astro gives the service that are not HTML attributes: Astro's own (as its base service
// strips them) and every PixelPress transform option passed as a prop, named by the client's one
// token table, so a token added there is never written out as an <img> attribute.
const astroKeys = ["src", "width", "height", "widths", "densities", "formats", "quality", "format", "fit", "position", "layout", "priority", "background", "inputtedWidth"];
const transformKeys = new Set<string>([...astroKeys, ...transformOptionNames]);

// Transform options Astro names itself and this service maps (presets, CSS keywords); every other
// transform option is passed through as given, and the edge's parser judges its value.
const mappedByAstro = new Set<string>(["width", "height", "quality", "format", "fit", "gravity", "background"]);

function configOf(imageConfig: AstroImageConfig<ImageUrlConfig>): ImageUrlConfig {
  const config = imageConfig.service.config;
  if (!config?.baseUrl || !config.keyId) {
    throw transformInvalid([{ pointer: "/options", detail: "the Astro image service needs image.service.config.baseUrl and keyId" }]);
  }
  return config;
}

function srcOf(config: ImageUrlConfig, src: AstroImageTransform["src"]): string {
  if (typeof src !== "string") {
    throw transformInvalid([{ pointer: "/src", detail: "PixelPress transforms files and origin paths: give a file id, a path or a URL as src, not an imported local image" }]);
  }
  return sourceOf(config, src, "Astro");
}

function lookUp<T>(table: Record<string, T>, value: string | undefined, option: string, what: string): T | undefined {
  if (value === undefined) return undefined;
  const key = option === "position" ? value.trim().split(/\s+/).sort().join(" ") : value;
  if (!Object.hasOwn(table, key)) {
    throw transformInvalid([{ pointer: `/transform/${option}`, detail: `${option} "${value}" has no PixelPress transform; use one of ${Object.keys(table).join(", ")} (${what})` }]);
  }
  return table[key];
}

function transformOf(options: AstroImageTransform): TransformOptions {
  const quality = typeof options.quality === "string" ? lookUp(qualityPresets, options.quality, "quality", "Astro's presets") : options.quality;
  const passed: Partial<TransformOptions> = Object.fromEntries(transformOptionNames.filter((name) => !mappedByAstro.has(name)).map((name) => [name, options[name]]));
  return {
    ...passed,
    width: rounded(options.width, "width"),
    height: rounded(options.height, "height"),
    quality: rounded(quality, "quality"),
    format: options.format as TransformOptions["format"],
    fit: lookUp(fits, options.fit, "fit", "CSS object-fit"),
    background: backgroundOf(options.background),
    gravity: (options.gravity as TransformOptions["gravity"]) ?? lookUp(positions, options.position, "position", "CSS object-position keywords"),
  };
}

function densityOf(density: number | `${number}x`): number {
  return typeof density === "number" ? density : Number.parseFloat(density);
}

export const astroImageService: AstroExternalImageService<ImageUrlConfig> = {
  getURL(options, imageConfig) {
    const config = configOf(imageConfig);
    return transformUrl(config, srcOf(config, options.src), transformOf(options));
  },

  // Astro writes each returned transform through getURL; descriptors follow its own rounding.
  getSrcSet(options, imageConfig) {
    configOf(imageConfig);
    const { widths, densities, ...base } = options;
    const { width, height } = base;
    if (widths) {
      if (width === undefined && height !== undefined) {
        throw transformInvalid([{ pointer: "/transform/height", detail: "with widths, give height together with width: the two set the aspect ratio" }]);
      }
      const ratio = width !== undefined && height !== undefined ? height / width : undefined;
      return widths.map((w) => ({
        transform: { ...base, width: w, height: ratio === undefined ? undefined : Math.round(w * ratio) },
        descriptor: `${w}w`,
      }));
    }
    if (densities) {
      if (width === undefined && height === undefined) {
        throw transformInvalid([{ pointer: "/transform", detail: "densities multiply a 1x size: give width or height" }]);
      }
      return densities.map((density) => {
        const d = densityOf(density);
        return {
          transform: { ...base, width: width === undefined ? undefined : Math.round(width * d), height: height === undefined ? undefined : Math.round(height * d) },
          descriptor: `${d}x`,
        };
      });
    }
    return [];
  },

  getHTMLAttributes(options) {
    const attributes = Object.fromEntries(Object.entries(options).filter(([key]) => !transformKeys.has(key)));
    return { ...attributes, width: options.width, height: options.height, loading: options.loading ?? "lazy", decoding: options.decoding ?? "async" };
  },
};

// `image.service.entrypoint: "@pixelpress/astro"` reads the module's default export.
export default astroImageService;
