// A border of one colour trimmed away (transform `trim_<tolerance>`, the rule in trim-box.ts),
// after the crop and before the turn. sharp would trim after a pending turn, from another corner's
// colour, so it trims rendered pixels here. An animation's frames must stay one size: each is cut
// to its first frame's box.
import sharp from "sharp";
import { eachFrame, type ImageStep, type ImageWork } from "./image-step.ts";
import { trimmable, trimmedPicture } from "./trim-box.ts";

/** The box trimming keeps of the first frame, and for a still image its pixels cut to it. */
async function firstFrameTrim(work: ImageWork, tolerance: number) {
  const { data, info } = await work.image.clone().raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const frameHeight = info.height / (work.animation?.frames ?? 1);
  const first = sharp(data.subarray(0, info.width * frameHeight * info.channels), { raw: { width: info.width, height: frameHeight, channels: info.channels } });
  const { box, trimmed } = await trimmedPicture(first, tolerance);
  return { box, whole: box.width === info.width && box.height === frameHeight, trimmed };
}

export function trim(tolerance: number | undefined): ImageStep {
  return async (work) => {
    if (tolerance === undefined || !trimmable(work.upright)) return;
    const { box, whole, trimmed } = await firstFrameTrim(work, tolerance);
    // Nothing to cut: the pipeline goes on as it was, so the bytes are the plain transform's (a
    // rendered JPEG would lose its shrink-on-load and differ).
    if (whole) return;
    if (work.animation === null) {
      const { width, height, channels } = trimmed.info;
      work.image = sharp(trimmed.data, { raw: { width, height, channels } });
    } else {
      await eachFrame(work, (frame) => frame.extract(box));
    }
    work.upright = { width: box.width, height: box.height };
  };
}
