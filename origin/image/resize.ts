// Target dimensions are computed here, not left to sharp, so every fit mode's
// exact output size (and the no-enlargement rule) is one pure, tested function.
import type { Sharp } from "sharp";
import type { ImageOptions } from "../../contracts/image-options.ts";
import type { Size } from "../../contracts/image-orientation.ts";
import type { ImageStep } from "./image-step.ts";

export type ResizeRequest = Pick<ImageOptions, "width" | "height" | "fit" | "enlarge">;

export type ResizePlan =
  | { kind: "none"; size: Size }
  | { kind: "scale"; size: Size }
  | { kind: "cover"; size: Size }
  | { kind: "contain"; inner: Size; size: Size };

export function planResize(source: Size, request: ResizeRequest): ResizePlan {
  const { width, height, fit, enlarge } = request;
  if (width === null && height === null) return { kind: "none", size: source };
  if (width === null || height === null || fit === "inside") {
    const scale = Math.min(
      width === null ? Infinity : width / source.width,
      height === null ? Infinity : height / source.height,
      enlarge ? Infinity : 1,
    );
    return scaled(source, { width: atLeastOne(source.width * scale), height: atLeastOne(source.height * scale) });
  }
  const box = { width, height };
  switch (fit) {
    case "fill":
      return scaled(source, enlarge ? box : clampTo(box, source));
    case "cover": {
      const fillsWithoutEnlarging = width <= source.width && height <= source.height;
      const size = enlarge || fillsWithoutEnlarging ? box : clampTo(box, source);
      return sameSize(size, source) ? { kind: "none", size: source } : { kind: "cover", size };
    }
    case "contain": {
      const scale = Math.min(width / source.width, height / source.height, enlarge ? Infinity : 1);
      const inner = { width: atLeastOne(source.width * scale), height: atLeastOne(source.height * scale) };
      if (sameSize(inner, box)) return scaled(source, box);
      return { kind: "contain", inner, size: box };
    }
  }
}

/** Resizes to the plan made for the upright source; `padBackground` as in applyResize. */
export function resize(plan: (upright: Size) => ResizePlan, padBackground: string | null): ImageStep {
  return (work) => {
    applyResize(work.image, plan(work.upright), padBackground);
  };
}

/** `padBackground` null pads with transparent pixels (flattened later if the format has no alpha). */
export function applyResize(image: Sharp, plan: ResizePlan, padBackground: string | null): Sharp {
  switch (plan.kind) {
    case "none":
      return image;
    case "scale":
      return image.resize(plan.size.width, plan.size.height, { fit: "fill" });
    case "cover":
      return image.resize(plan.size.width, plan.size.height, { fit: "cover", position: "centre" });
    case "contain": {
      const padX = plan.size.width - plan.inner.width;
      const padY = plan.size.height - plan.inner.height;
      return image.resize(plan.inner.width, plan.inner.height, { fit: "fill" }).extend({
        left: Math.floor(padX / 2),
        right: padX - Math.floor(padX / 2),
        top: Math.floor(padY / 2),
        bottom: padY - Math.floor(padY / 2),
        background: padBackground ?? { r: 0, g: 0, b: 0, alpha: 0 },
      });
    }
  }
}

function scaled(source: Size, size: Size): ResizePlan {
  return sameSize(size, source) ? { kind: "none", size: source } : { kind: "scale", size };
}

function clampTo(box: Size, source: Size): Size {
  return { width: Math.min(box.width, source.width), height: Math.min(box.height, source.height) };
}

function sameSize(a: Size, b: Size): boolean {
  return a.width === b.width && a.height === b.height;
}

function atLeastOne(value: number): number {
  return Math.max(1, Math.round(value));
}
