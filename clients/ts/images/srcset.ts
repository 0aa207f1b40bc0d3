// srcset candidates as canonical transforms: a width list gives `w` descriptors, a density list
// `x` descriptors. With the source's size known, each `w` descriptor is the width the edge will
// really send (it never enlarges with `inside`), and candidates that would be the same image go.
import { resolveTransform } from "../../../contracts/transform/canonical.ts";
import { outputSize, type PixelSize } from "../../../contracts/transform/output-size.ts";
import { transformInvalid } from "./transform-error.ts";
import { canonicalOf, specOf, type TransformOptions } from "./transform-tokens.ts";
import type { UrlWriter } from "./transform-url.ts";

export interface Candidate {
  canonical: string;
  descriptor: string;
}

/**
 * `widths`: candidate widths in pixels; `width` with `height` give the aspect ratio to keep.
 * `densities`: multiples of `width`/`height` (the 1x size), 1 to 4.
 */
export interface SrcsetOptions extends TransformOptions {
  widths?: number[];
  densities?: number[];
}

const ascendingUnique = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);

function widthCandidates(transform: TransformOptions, widths: number[], intrinsic: PixelSize | undefined): Candidate[] {
  if (transform.dpr !== undefined) throw transformInvalid([{ pointer: "/transform/dpr", detail: "with widths, leave dpr out: each width is already in device pixels" }]);
  if (transform.height !== undefined && transform.width === undefined) {
    throw transformInvalid([{ pointer: "/transform/height", detail: "with widths, give height together with width: the two set the aspect ratio each width keeps" }]);
  }
  const ratio = transform.height !== undefined && typeof transform.width === "number" ? transform.height / transform.width : undefined;
  const candidates: Candidate[] = [];
  const described = new Set<number>();
  for (const width of ascendingUnique(widths)) {
    const spec = specOf({ ...transform, width, height: ratio === undefined ? undefined : Math.max(1, Math.round(width * ratio)) });
    const actual = intrinsic ? outputSize(intrinsic, resolveTransform(spec)).width : width;
    if (described.has(actual)) continue;
    described.add(actual);
    candidates.push({ canonical: canonicalOf(spec), descriptor: `${actual}w` });
  }
  return candidates;
}

function densityCandidates(transform: TransformOptions, densities: number[], intrinsic: PixelSize | undefined): Candidate[] {
  if (transform.dpr !== undefined) throw transformInvalid([{ pointer: "/transform/dpr", detail: "with densities, leave dpr out: each density is the dpr of its candidate" }]);
  if (transform.width === undefined && transform.height === undefined) {
    throw transformInvalid([{ pointer: "/transform", detail: "densities multiply a 1x size: give width or height" }]);
  }
  const candidates: Candidate[] = [];
  let previous: PixelSize | undefined;
  for (const dpr of ascendingUnique(densities)) {
    const spec = specOf({ ...transform, dpr });
    if (intrinsic) {
      const size = outputSize(intrinsic, resolveTransform(spec));
      if (previous && size.width === previous.width && size.height === previous.height) continue;
      previous = size;
    }
    candidates.push({ canonical: canonicalOf(spec), descriptor: `${dpr}x` });
  }
  return candidates;
}

export function srcsetCandidates(options: SrcsetOptions, intrinsic?: PixelSize): Candidate[] {
  const { widths, densities, ...transform } = options;
  if (widths !== undefined && densities !== undefined) {
    throw transformInvalid([{ pointer: "/transform", detail: "give widths or densities, not both: one srcset cannot mix w and x descriptors" }]);
  }
  if (typeof transform.width === "object") {
    throw transformInvalid([{ pointer: "/transform/width", detail: "w_auto picks its width from the browser's client hints: a srcset needs fixed widths" }]);
  }
  if (widths?.length === 0 || densities?.length === 0) {
    throw transformInvalid([{ pointer: "/transform", detail: `${widths ? "widths" : "densities"} is empty; give at least one` }]);
  }
  if (widths !== undefined) return widthCandidates(transform, widths, intrinsic);
  if (densities !== undefined) return densityCandidates(transform, densities, intrinsic);
  throw transformInvalid([{ pointer: "/transform", detail: "a srcset needs widths or densities" }]);
}

export function writeSrcset(fileId: string, candidates: Candidate[], write: UrlWriter): string {
  return candidates.map((candidate) => `${write(fileId, candidate.canonical)} ${candidate.descriptor}`).join(", ");
}
