// A rectangle cut out of the source (transform `crop_`), in pixels after the EXIF orientation and
// before the caller's turn and mirror. sharp orders its own operations (a pending turn would run
// before a pre-resize extract once a resize is asked), so the rectangle is cut and the pixels
// rendered here: every later step works on the cut-out alone. An animation's frames are cut alike.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { cropValue, type CropRect } from "../../contracts/transform/token-values.ts";
import { eachFrame, renderNow, type ImageStep } from "./image-step.ts";

export function crop(rect: CropRect | undefined): ImageStep {
  return async (work) => {
    if (rect === undefined) return;
    const { width, height } = work.upright;
    if (rect.x + rect.width > width || rect.y + rect.height > height) {
      const token = `crop_${cropValue(rect)}`;
      const detail = `${token} reaches past the image, which is ${width}x${height} pixels upright.`;
      throw new ProblemError("crop_out_of_bounds", detail, {
        errors: [{ pointer: `/transform/${token}`, detail }],
        extensions: { image_width: width, image_height: height },
      });
    }
    const region = { left: rect.x, top: rect.y, width: rect.width, height: rect.height };
    if (work.animation === null) await renderNow(work, (image) => image.extract(region));
    else await eachFrame(work, (frame) => frame.extract(region));
    work.upright = { width: rect.width, height: rect.height };
  };
}
