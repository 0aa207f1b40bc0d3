// imgproxy's pattern: an image pipeline is a list of named steps run in order over one piece of
// work. Optimize (pipeline.ts), transform (transform-image.ts) and mezzanine (derive-mezzanine.ts)
// are each a step list over the same steps (auto-orient, to-srgb, resize, ...), so orientation,
// colour and resizing are decided in one place each.
import sharp, { type Sharp } from "sharp";
import type { Size } from "../../contracts/image-orientation.ts";
import { checkDeadline } from "../worker-pool/deadline.ts";
import { checkAnimationLimits, openSource, type Animation, type SourceImage } from "./decode-limits.ts";

export interface ImageWork {
  /** The image so far. sharp builds it lazily; a step may replace it (to-srgb does for CMYK). */
  image: Sharp;
  readonly source: SourceImage;
  /**
   * The picture's size as the steps so far shape it, whether sharp has run them yet or not: the
   * source's once orientation is settled, then the cut-out's (crop, trim), then turned (rotate).
   * What resize plans and focal crops start from.
   */
  upright: Size;
  /** The EXIF orientation applied to the pixels, null when none was. */
  orientation_applied: number | null;
  /** The source's animation when every frame is kept (steps then work on each frame); null for one frame. */
  readonly animation: Animation | null;
}

export type ImageStep = (work: ImageWork) => void | Promise<void>;

/** `animated`: keep every frame of an animated source; without it the steps work on the first frame. */
export async function runSteps(
  input: Uint8Array,
  source: SourceImage,
  steps: readonly ImageStep[],
  { animated = false }: { animated?: boolean } = {},
): Promise<ImageWork> {
  const animation = animated ? source.animation : null;
  if (animation !== null) checkAnimationLimits(source);
  const work: ImageWork = {
    image: openSource(input, animation !== null),
    source,
    upright: { width: source.width, height: source.height },
    orientation_applied: null,
    animation,
  };
  for (const step of steps) {
    checkDeadline(`The image (before ${step.name || "a step"})`);
    await step(work);
  }
  return work;
}

/**
 * Runs what the still image's pipeline holds so far, then `operation`, and continues from the
 * rendered pixels. sharp orders the operations of one pipeline its own way (trim and extract
 * before resize, a pending turn before them once a resize is asked, modulate after padding), so a
 * step whose place in the order matters renders here. Only still images: frames use eachFrame.
 */
export async function renderNow(work: ImageWork, operation: (image: Sharp) => Sharp): Promise<Size> {
  const { data, info } = await operation(work.image).raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  work.image = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return { width: info.width, height: info.height };
}

/**
 * Applies `operation` to each frame of a kept animation on its own, for what libvips would apply
 * across its stacked frames: a turn would scramble them, a blur would bleed one frame into the
 * next. Every frame comes out the same size, so they stack again. A frame loop, so only ever at the
 * origin, for these steps only.
 */
export async function eachFrame(work: ImageWork, operation: (frame: Sharp) => Sharp): Promise<void> {
  const frames = work.animation?.frames ?? 1;
  const { data, info } = await work.image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const pageHeight = info.height / frames;
  const frameBytes = info.width * pageHeight * info.channels;
  const done: Buffer[] = [];
  let size = { width: info.width, height: pageHeight, channels: info.channels };
  for (let i = 0; i < frames; i++) {
    checkDeadline("The animation");
    const frame = sharp(data.subarray(i * frameBytes, (i + 1) * frameBytes), { raw: { width: info.width, height: pageHeight, channels: info.channels } });
    const out = await operation(frame).raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    done.push(out.data);
    size = { width: out.info.width, height: out.info.height, channels: out.info.channels };
  }
  work.image = await restacked(Buffer.concat(done), size, frames);
}

// Frames of one size stacked top to bottom, as an animation sharp reads frame by frame again:
// libvips resizes raw stacked frames as one picture; a lossless animated WebP (exact pixels)
// reopened with every frame is resized frame by frame like the source was.
async function restacked(data: Buffer, frame: { width: number; height: number; channels: 1 | 2 | 3 | 4 }, frames: number): Promise<Sharp> {
  const stacked = sharp(data, { raw: { width: frame.width, height: frame.height * frames, channels: frame.channels, pageHeight: frame.height } });
  const lossless = await stacked.webp({ lossless: true, exact: true, effort: 0 }).toBuffer();
  return sharp(lossless, { animated: true });
}

/**
 * Applies a colour `operation` that sharp would run after the resize and padding (linear,
 * recomb): renders what came before and then it, so the padding the fit adds later keeps its
 * colour. Each frame of a kept animation on its own, for the same reason.
 */
export async function adjustNow(work: ImageWork, operation: (image: Sharp) => Sharp): Promise<void> {
  if (work.animation === null) await renderNow(work, operation);
  else await eachFrame(work, operation);
}

/**
 * Maps every colour channel's value through `table` (256 entries), alpha left as it is, on the
 * picture rendered so far: a lookup sharp has no operation for. Per pixel, so stacked frames
 * need no loop of their own.
 */
export async function mapColourChannels(work: ImageWork, table: Uint8Array): Promise<void> {
  const { data, info } = await work.image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const colours = info.channels === 2 || info.channels === 4 ? info.channels - 1 : info.channels;
  for (let i = 0; i < data.length; i += info.channels) {
    for (let c = 0; c < colours; c++) data[i + c] = table[data[i + c]!]!;
  }
  const frames = work.animation?.frames ?? 1;
  const frame = { width: info.width, height: info.height / frames, channels: info.channels };
  work.image = frames === 1 ? sharp(data, { raw: frame }) : await restacked(data, frame, frames);
}
