// Where the output pixels come from: the source region to keep and the size to scale it to.
// Follows sharp's resize semantics so edge and origin derivatives have the same dimensions:
// `inside` never enlarges, `cover` crops at the gravity, `fill` stretches.
import type { ResolvedTransform } from "../../contracts/transform/registry.ts";
import type { Gravity } from "../../contracts/transform/token-values.ts";

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Geometry {
  crop: Region | null;
  width: number;
  height: number;
}

type Box = Pick<ResolvedTransform, "width" | "height" | "fit" | "gravity">;

export function outputGeometry(sourceWidth: number, sourceHeight: number, op: Box): Geometry {
  const { width, height } = op;
  if (width === undefined && height === undefined) return { crop: null, width: sourceWidth, height: sourceHeight };
  if (width === undefined || height === undefined || op.fit === "inside" || op.fit === "contain") {
    const scale = Math.min(1, width === undefined ? Infinity : width / sourceWidth, height === undefined ? Infinity : height / sourceHeight);
    return { crop: null, width: Math.max(1, Math.round(sourceWidth * scale)), height: Math.max(1, Math.round(sourceHeight * scale)) };
  }
  if (op.fit === "fill") return { crop: null, width, height };
  const scale = Math.max(width / sourceWidth, height / sourceHeight);
  const cropWidth = Math.min(sourceWidth, Math.round(width / scale));
  const cropHeight = Math.min(sourceHeight, Math.round(height / scale));
  const [x, y] = anchor(op.gravity);
  return {
    crop: { left: Math.round((sourceWidth - cropWidth) * x), top: Math.round((sourceHeight - cropHeight) * y), width: cropWidth, height: cropHeight },
    width,
    height,
  };
}

export interface Size {
  width: number;
  height: number;
}

/**
 * The geometry of `op` on `frame` (the original's upright size), carried out on `source`, a
 * same-shape downscale of it (a mezzanine): the output size is the original's, so a derivative
 * has the same dimensions whichever of the two it was made from; only the crop is rescaled.
 * With `source` the same size as `frame` this is outputGeometry.
 */
export function geometryOnDownscale(source: Size, frame: Size, op: Box): Geometry {
  const planned = outputGeometry(frame.width, frame.height, op);
  if (planned.crop === null) return planned;
  const x = source.width / frame.width;
  const y = source.height / frame.height;
  const left = Math.min(source.width - 1, Math.round(planned.crop.left * x));
  const top = Math.min(source.height - 1, Math.round(planned.crop.top * y));
  const width = Math.max(1, Math.min(source.width - left, Math.round(planned.crop.width * x)));
  const height = Math.max(1, Math.min(source.height - top, Math.round(planned.crop.height * y)));
  return { crop: { left, top, width, height }, width: planned.width, height: planned.height };
}

// Fractions of the slack to leave on the left and on the top.
function anchor(gravity: Gravity): [number, number] {
  const x = gravity.endsWith("east") ? 1 : gravity.endsWith("west") ? 0 : 0.5;
  const y = gravity.startsWith("north") ? 0 : gravity.startsWith("south") ? 1 : 0.5;
  return [x, y];
}
