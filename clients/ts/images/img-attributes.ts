// Everything an <img> or <picture> needs for one uploaded file: `src`, `srcset`, `sizes`, and the
// `width`/`height` the derivative will really have, so the layout does not shift when it arrives.
// Each helper plans canonical transforms first and writes URLs last, so the server's signing
// entry point can sign every planned URL before writing them.
import { resolveTransform } from "../../../contracts/transform/canonical.ts";
import { contentTypes } from "../../../contracts/transform/output-format.ts";
import { outputSize, type PixelSize } from "../../../contracts/transform/output-size.ts";
import { fixedWidth } from "../../../contracts/transform/hint-tokens.ts";
import type { OutputFormat } from "../../../contracts/transform/token-values.ts";
import { srcsetCandidates, writeSrcset, type Candidate, type SrcsetOptions } from "./srcset.ts";
import { transformInvalid } from "./transform-error.ts";
import { canonicalOf, specOf } from "./transform-tokens.ts";
import type { UrlWriter } from "./transform-url.ts";

export interface ImgOptions extends SrcsetOptions {
  /**
   * The uploaded file's upright size in pixels (an optimize result's `width`/`height`, or your
   * own records). With it `width` and `height` are exact and candidates past it are dropped.
   */
  intrinsic?: PixelSize;
  /** `widths` gives `w` descriptors; without it, `densities` (default 1 and 2) of `width`/`height`. */
  /** With widths: defaults to `(min-width: Wpx) Wpx, 100vw` when `width` is given, else `100vw`. */
  sizes?: string;
}

export interface ImgAttributes {
  src: string;
  /** A `w_auto` width's one URL, the browser's client hints choosing its width at the edge. */
  srcset: string;
  sizes?: string;
  width?: number;
  height?: number;
}

export interface PictureOptions extends ImgOptions {
  /** One <source> per format, in order of preference; the <img> keeps `format` (or the file's own). */
  formats?: OutputFormat[];
}

export interface PictureSource {
  type: string;
  srcset: string;
  sizes?: string;
}

export interface PictureAttributes {
  sources: PictureSource[];
  img: ImgAttributes;
}

export interface ImgPlan {
  fileId: string;
  src: string;
  candidates: Candidate[];
  sizes?: string;
  size: Partial<PixelSize>;
}

export interface PicturePlan {
  sources: { type: string; plan: ImgPlan }[];
  img: ImgPlan;
}

// w_auto: one URL whose width the edge picks from the browser's hints. Chrome sends Sec-CH-Width
// for an <img> with `sizes` (the slot's width times the device pixel ratio), so sizes is always set.
function planAutoWidth(fileId: string, options: ImgOptions): ImgPlan {
  const { intrinsic, widths, densities, sizes, ...transform } = options;
  if (widths !== undefined || densities !== undefined) {
    throw transformInvalid([{ pointer: "/transform/width", detail: "w_auto picks its width from the browser's client hints: leave widths and densities out" }]);
  }
  const spec = specOf(transform);
  // Without hints the edge serves the fallback: the size the attributes announce.
  const size = intrinsic ? outputSize(intrinsic, resolveTransform(spec)) : { width: fixedWidth(transform.width), height: transform.height };
  return { fileId, src: canonicalOf(spec), candidates: [], sizes: sizes ?? "100vw", size };
}

export function planImg(fileId: string, options: ImgOptions): ImgPlan {
  if (typeof options.width === "object") return planAutoWidth(fileId, options);
  const { intrinsic, widths, densities, sizes, ...transform } = options;
  const candidates = srcsetCandidates({ ...transform, widths, densities: widths === undefined ? (densities ?? [1, 2]) : densities }, intrinsic);
  const sized = transform.width !== undefined || transform.height !== undefined;
  // Without a 1x size (a fluid image), src is the largest candidate.
  const srcSpec = specOf(sized ? transform : candidates.at(-1)!.canonical);
  const width = fixedWidth(transform.width);
  const size = intrinsic ? outputSize(intrinsic, resolveTransform(srcSpec)) : { width, height: transform.height };
  const defaultSizes = width !== undefined ? `(min-width: ${width}px) ${width}px, 100vw` : "100vw";
  return { fileId, src: canonicalOf(srcSpec), candidates, sizes: sizes ?? (widths !== undefined ? defaultSizes : undefined), size };
}

export function planPicture(fileId: string, options: PictureOptions): PicturePlan {
  const { formats = ["avif", "webp"], ...img } = options;
  const sources = formats.map((format) => {
    if (!Object.hasOwn(contentTypes, format)) {
      throw transformInvalid([{ pointer: `/formats/${format}`, detail: `a <source> needs one format: ${Object.keys(contentTypes).join(", ")}` }]);
    }
    return { type: contentTypes[format], plan: planImg(fileId, { ...img, format }) };
  });
  return { sources, img: planImg(fileId, img) };
}

export function canonicalsOf(plan: ImgPlan | PicturePlan): string[] {
  if ("sources" in plan) return [...plan.sources.flatMap((source) => canonicalsOf(source.plan)), ...canonicalsOf(plan.img)];
  return [plan.src, ...plan.candidates.map((candidate) => candidate.canonical)];
}

export function writeImg(plan: ImgPlan, write: UrlWriter): ImgAttributes {
  const src = write(plan.fileId, plan.src);
  const attributes: ImgAttributes = { src, srcset: plan.candidates.length > 0 ? writeSrcset(plan.fileId, plan.candidates, write) : src };
  if (plan.sizes !== undefined) attributes.sizes = plan.sizes;
  if (plan.size.width !== undefined) attributes.width = plan.size.width;
  if (plan.size.height !== undefined) attributes.height = plan.size.height;
  return attributes;
}

export function writePicture(plan: PicturePlan, write: UrlWriter): PictureAttributes {
  return {
    sources: plan.sources.map(({ type, plan: source }) => {
      const { srcset, sizes } = writeImg(source, write);
      return sizes === undefined ? { type, srcset } : { type, srcset, sizes };
    }),
    img: writeImg(plan.img, write),
  };
}
