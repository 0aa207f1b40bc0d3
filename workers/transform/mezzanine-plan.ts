// Which transforms a mezzanine serves: those the edge pipeline has (no blur, sharpen, rotation,
// padding or content-aware crop) whose output is no larger than the mezzanine's pixels for the
// region kept. Bigger outputs come from the original, at the origin, so no detail is lost.
import { edgeCanTransform } from "../edge-image/edge-pipeline.ts";
import type { ImageHeader } from "../edge-image/image-header.ts";
import type { ResolvedTransform } from "../../contracts/transform/registry.ts";
import { mezzanineSize, type OriginMezzanineMeta, type Size } from "../../contracts/origin/image-mezzanine.ts";
import { uprightSize } from "../../contracts/image-orientation.ts";

function mezzanineHeader(size: Size, format: ImageHeader["format"], hasAlpha: boolean): ImageHeader {
  return { format, width: size.width, height: size.height, hasAlpha, orientation: null, cmyk: false, animated: false };
}

/** A stored mezzanine, judged from its meta before its body is read. */
export function mezzanineServes(meta: OriginMezzanineMeta, op: ResolvedTransform): boolean {
  return edgeCanTransform(mezzanineHeader(meta, meta.format, meta.original.hasAlpha), op, meta.original);
}

/** The mezzanine this original would get, were it made (the caller knows the edge cannot use the original). */
export function mezzanineWouldServe(original: ImageHeader, op: ResolvedTransform): boolean {
  const upright = uprightSize(original);
  return edgeCanTransform(mezzanineHeader(mezzanineSize(upright), "jpeg", original.hasAlpha), op, upright);
}
