// imgproxy's pattern: an image pipeline is a list of named steps run in order over one piece of
// work. Optimize (pipeline.ts), transform (transform-image.ts) and mezzanine (derive-mezzanine.ts)
// are each a step list over the same steps (auto-orient, to-srgb, resize, ...), so orientation,
// colour and resizing are decided in one place each.
import type { Sharp } from "sharp";
import type { Size } from "../../contracts/image-orientation.ts";
import { openSource, type Animation, type SourceImage } from "./decode-limits.ts";

export interface ImageWork {
  /** The image so far. sharp builds it lazily; a step may replace it (to-srgb does for CMYK). */
  image: Sharp;
  readonly source: SourceImage;
  /** The source's size once orientation is settled: what resize plans start from. */
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
  const work: ImageWork = {
    image: openSource(input, animation !== null),
    source,
    upright: { width: source.width, height: source.height },
    orientation_applied: null,
    animation,
  };
  for (const step of steps) await step(work);
  return work;
}
