// sharp's autoOrient applies all eight EXIF orientations (the mirrored ones included) to the
// pixels and drops the tag; which sizes swap is the shared rule in contracts/.
import { uprightSize } from "../../contracts/image-orientation.ts";
import type { ImageStep } from "./image-step.ts";

export function autoOrient(enabled: boolean): ImageStep {
  return (work) => {
    const { orientation } = work.source;
    if (!enabled || orientation === null) return;
    work.image.autoOrient();
    work.upright = uprightSize(work.source);
    work.orientation_applied = orientation;
  };
}
