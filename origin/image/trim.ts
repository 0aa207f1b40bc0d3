// A border of one colour trimmed away (transform `trim_<tolerance>`), after the crop and before
// the turn: libvips finds the box of what differs from the top-left pixel by more than the
// tolerance. sharp would trim after a pending turn, from another corner's colour, so it trims and
// renders here. An animation's frames must stay one size: each is cut to its first frame's box.
import sharp from "sharp";
import { eachFrame, renderNow, type ImageStep, type ImageWork } from "./image-step.ts";

/** libvips' threshold is in channel units (0 to 255 for 8-bit pixels); the token's is a percentage. */
function thresholdOf(tolerance: number): number {
  return (tolerance * 255) / 100;
}

async function firstFrameBox(work: ImageWork, threshold: number) {
  const { data, info } = await work.image.clone().raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const frameHeight = work.upright.height;
  const first = sharp(data.subarray(0, info.width * frameHeight * info.channels), { raw: { width: info.width, height: frameHeight, channels: info.channels } });
  const trimmed = await first.trim({ threshold }).raw().toBuffer({ resolveWithObject: true });
  // libvips reports the box's corner as the offset of the trimmed picture: negative.
  return { left: -(trimmed.info.trimOffsetLeft ?? 0), top: -(trimmed.info.trimOffsetTop ?? 0), width: trimmed.info.width, height: trimmed.info.height };
}

export function trim(tolerance: number | undefined): ImageStep {
  return async (work) => {
    // libvips needs 3x3 pixels to tell a border from the rest.
    if (tolerance === undefined || (work.upright.width < 3 && work.upright.height < 3)) return;
    const threshold = thresholdOf(tolerance);
    if (work.animation === null) {
      work.upright = await renderNow(work, (image) => image.trim({ threshold }));
      return;
    }
    const box = await firstFrameBox(work, threshold);
    await eachFrame(work, (frame) => frame.extract(box));
    work.upright = { width: box.width, height: box.height };
  };
}
