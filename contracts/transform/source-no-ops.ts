// Tokens whose effect depends on the source, so the canonical form must keep them: `pg_1` is
// required for a PDF, and a crop cuts a larger image. On a still, upright, single-page image whose
// size is known they change nothing: its only page is page 1, and a crop of its whole frame cuts
// nothing. Once the edge has read such a header it makes the derivative without them, so it is the
// plain transform's bytes, made where the plain one is, and the same-bytes rule charges it once.
import type { Size } from "../image-orientation.ts";
import type { ResolvedTransform } from "./registry.ts";
import type { CropRect } from "./token-values.ts";

const wholeFrame = (crop: CropRect, frame: Size) => crop.x === 0 && crop.y === 0 && crop.width === frame.width && crop.height === frame.height;

/** Whether `op` has a token that a still single-page source may make a no-op. */
export function mayBeSourceNoOp(op: ResolvedTransform): boolean {
  return op.page === 1 || op.crop !== undefined;
}

/** `op` without `pg_1` and a crop of the whole `frame`, for a still, upright, single-page source of that size. */
export function withoutSourceNoOps(op: ResolvedTransform, frame: Size): ResolvedTransform {
  const page = op.page === 1 ? undefined : op.page;
  const crop = op.crop !== undefined && wholeFrame(op.crop, frame) ? undefined : op.crop;
  return page === op.page && crop === op.crop ? op : { ...op, page, crop };
}
