// unpic provider: `generate`, `extract` and `transform`, the three functions every unpic provider
// exports. `transform` is a TransformerFunction, what @unpic/core's transformBaseImageProps and
// getSrcSet take (and so every unpic framework component built on them).
import type { Operations, TransformerFunction } from "unpic";
import { resolveTransform } from "../../../contracts/transform/canonical.ts";
import { qualityValue } from "../../../contracts/transform/token-values.ts";
import { transformPath } from "../../../contracts/transform/path.ts";
import { clientSpecOf, transformInvalid } from "../images/transform-error.ts";
import type { TransformOptions } from "../images/transform-tokens.ts";
import { transformUrl } from "../images/transform-url.ts";
import { qualityOf, rounded, sourceOf } from "./framework-values.ts";
import type { ImageSources } from "../images/image-source.ts";

export interface PixelPressOperations extends Operations<"auto"> {
  fit?: TransformOptions["fit"];
  gravity?: TransformOptions["gravity"];
  blur?: number;
  sharpen?: number;
  rotate?: TransformOptions["rotate"];
}

export interface PixelPressOptions extends ImageSources {
  /** The PixelPress API origin. */
  baseUrl?: string;
  /** The public id of an active API key. */
  keyId?: string;
}

export interface ExtractedPixelPressUrl {
  src: string;
  operations: PixelPressOperations;
  options: Required<Pick<PixelPressOptions, "baseUrl" | "keyId">>;
}

const PATH = new RegExp(`^(.*)${transformPath("([^/]+)", "([^/]+)", "([^/]+)").replaceAll("/", "\\/")}$`);

export function generate(src: string | URL, operations: PixelPressOperations, options: PixelPressOptions = {}): string {
  const { baseUrl, keyId, defaultOrigin, origins } = options;
  if (!baseUrl || !keyId) {
    throw transformInvalid([{ pointer: "/options", detail: "the unpic provider needs options.baseUrl (the PixelPress API origin) and options.keyId" }]);
  }
  const { width, height, quality, format, ...rest } = operations;
  const transform: TransformOptions = {
    ...rest,
    width: rounded(width, "width"),
    height: rounded(height, "height"),
    quality: qualityOf(quality),
    // As unpic's own CDN providers do, the format is negotiated unless one is asked for; unpic's
    // srcset also passes `format: undefined` over the operations' format for every candidate.
    format: format ?? "auto",
  };
  const config = { baseUrl, keyId, defaultOrigin, origins };
  return transformUrl(config, sourceOf(config, src.toString(), "unpic"), transform);
}

/** A PixelPress transform URL taken apart; null for any other URL. A signature is not kept. */
export function extract(url: string | URL): ExtractedPixelPressUrl | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const match = PATH.exec(parsed.pathname);
  if (!match) return null;
  const [, prefix = "", keyId = "", segment = "", fileId = ""] = match;
  const spec = clientSpecOf(decodeURIComponent(segment));
  // Resolved, so a dpr_ is folded into the size the way the edge folds it.
  const op = resolveTransform(spec);
  // No rotation and a kept animation are left out: the options take only a turn and `animated: false`.
  const resolved = { ...op, quality: qualityValue(op.quality), rotate: op.rotate === 0 ? undefined : op.rotate, animated: op.animated ? undefined : false };
  const operations = Object.fromEntries(Object.entries(resolved).filter(([, value]) => value !== undefined)) as PixelPressOperations;
  return { src: decodeURIComponent(fileId), operations, options: { baseUrl: `${parsed.origin}${prefix}`, keyId: decodeURIComponent(keyId) } };
}

/** A PixelPress URL with new operations applied, or a file id turned into one. */
export const transform = ((src: string | URL, operations: PixelPressOperations, options?: PixelPressOptions): string => {
  const base = extract(src);
  if (!base) return generate(src, operations, options);
  return generate(base.src, { ...base.operations, ...operations }, { ...base.options, ...options });
}) satisfies TransformerFunction<PixelPressOperations, PixelPressOptions>;
