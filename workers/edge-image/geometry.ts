// Where the output pixels come from: the source region to keep and the size to scale it to.
// Follows sharp's resize semantics so edge and origin derivatives have the same dimensions:
// `inside` never enlarges, `cover` crops at the gravity, `fill` stretches.
import type { ResolvedTransform } from "../transform/canonical.ts";
import type { Gravity } from "../transform/tokens.ts";

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

// Fractions of the slack to leave on the left and on the top.
function anchor(gravity: Gravity): [number, number] {
  const x = gravity.endsWith("east") ? 1 : gravity.endsWith("west") ? 0 : 0.5;
  const y = gravity.startsWith("north") ? 0 : gravity.startsWith("south") ? 1 : 0.5;
  return [x, y];
}
