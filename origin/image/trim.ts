// A border of one colour trimmed away (transform `trim_<tolerance>`), after the crop and before
// the turn: libvips finds the box of what differs from the top-left pixel by more than the
// tolerance. sharp would trim after a pending turn, from another corner's colour, so it trims
// rendered pixels here. An animation's frames must stay one size: each is cut to its first frame's box.
import sharp from "sharp";
import { eachFrame, type ImageStep, type ImageWork } from "./image-step.ts";

/** libvips' threshold is in channel units (0 to 255 for 8-bit pixels); the token's is a percentage. */
function thresholdOf(tolerance: number): number {
  return (tolerance * 255) / 100;
}

/** The box trimming keeps of the first frame, and for a still image its pixels cut to it. */
async function firstFrameTrim(work: ImageWork, threshold: number) {
  const { data, info } = await work.image.clone().raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const frameHeight = info.height / (work.animation?.frames ?? 1);
  const first = sharp(data.subarray(0, info.width * frameHeight * info.channels), { raw: { width: info.width, height: frameHeight, channels: info.channels } });
  const trimmed = await first.trim({ threshold }).raw().toBuffer({ resolveWithObject: true });
  // libvips reports the box's corner as the offset of the trimmed picture: negative.
  const box = { left: -(trimmed.info.trimOffsetLeft ?? 0), top: -(trimmed.info.trimOffsetTop ?? 0), width: trimmed.info.width, height: trimmed.info.height };
  return { box, whole: box.width === info.width && box.height === frameHeight, trimmed };
}

export function trim(tolerance: number | undefined): ImageStep {
  return async (work) => {
    // libvips needs 3x3 pixels to tell a border from the rest.
    if (tolerance === undefined || (work.upright.width < 3 && work.upright.height < 3)) return;
    const { box, whole, trimmed } = await firstFrameTrim(work, thresholdOf(tolerance));
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
