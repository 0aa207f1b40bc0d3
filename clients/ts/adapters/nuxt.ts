// Nuxt Image provider: `getImage(src, { modifiers, baseURL, keyId })` returning `{ url }`, the
// signature @nuxt/image calls for a custom provider (wrap it in defineProvider with v2). The
// modifier names are this client's option names; baseURL is the PixelPress API origin.
import { transformInvalid } from "../images/transform-error.ts";
import type { TransformOptions } from "../images/transform-tokens.ts";
import { transformUrl } from "../images/transform-url.ts";
import { backgroundOf, qualityOf, rounded, sourceOf } from "./framework-values.ts";
import type { ImageSources } from "../images/image-source.ts";

/** The modifiers <NuxtImg> passes (width, height, fit, format, quality, background, blur) and ours. */
export type NuxtImageModifiers = Record<string, string | number | undefined | null>;

export interface NuxtProviderOptions extends ImageSources {
  modifiers?: NuxtImageModifiers;
  baseURL?: string;
  keyId?: string;
}

export interface NuxtResolvedImage {
  url: string;
}

export function getImage(src: string, { modifiers = {}, baseURL, keyId, defaultOrigin, origins }: NuxtProviderOptions): NuxtResolvedImage {
  if (!baseURL || !keyId) {
    throw transformInvalid([{ pointer: "/options", detail: "the Nuxt provider needs baseURL (the PixelPress API origin) and keyId in its options" }]);
  }
  const { width, height, quality, background, ...rest } = modifiers;
  // Nuxt fills every known modifier in, unset ones as undefined or null.
  const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && value !== null && value !== ""));
  const options: TransformOptions = { ...given, width: rounded(width, "width"), height: rounded(height, "height"), quality: qualityOf(quality), background: backgroundOf(background) };
  const config = { baseUrl: baseURL, keyId, defaultOrigin, origins };
  return { url: transformUrl(config, sourceOf(config, src, "Nuxt Image"), options) };
}
