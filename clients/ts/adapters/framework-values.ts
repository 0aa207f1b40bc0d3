// Frameworks hand adapters a `src` string and sizes computed by multiplication (densities,
// breakpoints, aspect ratios), sometimes as strings. The edge takes whole pixels and a source it can name:
// these are the two conversions every adapter makes the same way.
import { autoQualityLevel, type AutoQuality } from "../../../contracts/perceptual-quality.ts";
import { PixelPressError } from "../api-error.ts";
import { sourceSegment, type ImageSources } from "../images/image-source.ts";
import { transformInvalid } from "../images/transform-error.ts";

/**
 * The src as the URL builder takes it: a file id (`file_x`, or `/file_x` as frameworks root a
 * relative src), a path under `defaultOrigin`, or a URL under one of `origins`. Anything else is
 * refused, naming the framework.
 */
export function sourceOf(config: ImageSources, src: string, framework: string): string {
  try {
    sourceSegment(config, src);
    return src;
  } catch (error) {
    const reason = error instanceof PixelPressError ? error.problem.detail : String(error);
    throw transformInvalid([
      {
        pointer: "/src",
        detail: `the ${framework} adapter takes a PixelPress file id as src (such as file_8kT2bQ7xLw3mZr9Xc1Vd), a path under defaultOrigin or a URL under one of origins: ${reason}`,
      },
    ]);
  }
}

/** A size or quality rounded to the nearest whole number; undefined stays undefined. */
export function rounded(value: number | string | undefined | null, option: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) throw transformInvalid([{ pointer: `/transform/${option}`, detail: `${option} must be a number, not "${value}"` }]);
  return Math.round(number);
}

/** A quality: `auto` or `auto:<level>` as the edge spells it, otherwise a number rounded as `rounded` rounds it. */
export function qualityOf(value: number | string | undefined | null): number | AutoQuality | undefined {
  if (typeof value === "string" && autoQualityLevel(value) !== null) return value as AutoQuality;
  return rounded(value, "quality");
}

const CSS_HEX_COLOUR = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * A framework's CSS background (`#ff8800`, `#f80`) as bg_ spells it (`ff8800`). Only hex colours
 * have one spelling both sides agree on; a name or rgb() is refused rather than guessed.
 */
export function backgroundOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const hex = typeof value === "string" ? CSS_HEX_COLOUR.exec(value.trim())?.[1] : undefined;
  if (hex === undefined) {
    throw transformInvalid([{ pointer: "/transform/background", detail: `background must be a hex colour such as #ff8800 or #f80, not ${JSON.stringify(value)}` }]);
  }
  return (hex.length === 3 ? [...hex].map((digit) => digit + digit).join("") : hex).toLowerCase();
}
