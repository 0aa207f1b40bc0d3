// Frameworks hand adapters a `src` string and sizes computed by multiplication (densities,
// breakpoints, aspect ratios), sometimes as strings. The edge takes whole pixels and a file id:
// these are the two conversions every adapter makes the same way.
import { autoQualityLevel, type AutoQuality } from "../../../contracts/perceptual-quality.ts";
import { transformInvalid } from "../images/transform-error.ts";

/** `file_x` or `/file_x` (frameworks often root a relative src); anything else is refused. */
export function fileIdOf(src: string, framework: string): string {
  const fileId = src.startsWith("/") ? src.slice(1) : src;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(fileId)) {
    throw transformInvalid([
      { pointer: "/src", detail: `the ${framework} adapter takes a PixelPress file id as src (such as file_8kT2bQ7xLw3mZr9Xc1Vd), not "${src}"` },
    ]);
  }
  return fileId;
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
