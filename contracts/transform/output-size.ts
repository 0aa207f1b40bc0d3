// The pixel size of a derivative, known before it is made, so a page can declare `width` and
// `height` on its <img> and not shift when the image arrives. It follows the origin's sharp
// resize: `inside` (and a single side) never enlarges; `cover`, `contain` (padded) and `fill`
// give exactly the box. The rotation turns the source before it is resized.
import type { ResolvedTransform } from "./registry.ts";

export interface PixelSize {
  width: number;
  height: number;
}

export function outputSize(source: PixelSize, op: Pick<ResolvedTransform, "width" | "height" | "fit" | "rotate">): PixelSize {
  const turned = op.rotate === 90 || op.rotate === 270;
  const upright = turned ? { width: source.height, height: source.width } : source;
  const { width, height } = op;
  if (width !== undefined && height !== undefined && op.fit !== "inside") return { width, height };
  if (width === undefined && height === undefined) return upright;
  const scale = Math.min(1, width === undefined ? Infinity : width / upright.width, height === undefined ? Infinity : height / upright.height);
  return { width: Math.max(1, Math.round(upright.width * scale)), height: Math.max(1, Math.round(upright.height * scale)) };
}
