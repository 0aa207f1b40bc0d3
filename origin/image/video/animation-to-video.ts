// f_mp4 and f_webm: an animated GIF or WebP as a video. The frames go through the transform's
// steps like an animated WebP's would (resize, crop, colour, overlay on every frame), are
// flattened onto bg_ (white without it: a video has no alpha), and reach ffmpeg as an APNG with
// each frame's own delay (apng-stream.ts, video-encoders.ts).
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { VIDEO_LIMITS } from "../../../contracts/limits/video.ts";
import type { VideoFormat } from "../../../contracts/transform/token-values.ts";
import { checkDeadline } from "../../worker-pool/deadline.ts";
import { decodeFailure, type SourceImage } from "../decode-limits.ts";
import { runSteps } from "../image-step.ts";
import { transformSteps, type TransformOptions } from "../transform-steps.ts";
import { APNG_END, apngFrame, apngStart, type FrameSize } from "./apng-stream.ts";
import { runFfmpeg } from "./ffmpeg.ts";
import { evenFrame } from "./even-frame.ts";
import { VIDEO_ENCODERS, videoArgs } from "./video-encoders.ts";

export interface EncodedVideo {
  bytes: Uint8Array;
  format: VideoFormat;
  width: number;
  height: number;
}

// The steps pad and flatten as for a JPEG: opaque, onto bg_ or white.
const OPAQUE_FORMAT = "jpeg";

/** Refuses, from the header, a source that is not an animation or is over the video limits. */
export function checkVideoSource(source: SourceImage, video: VideoFormat): number[] {
  const { animation } = source;
  if (animation === null) {
    throw new ProblemError("unprocessable", `f_${video} makes a video of an animated GIF or WebP; this ${source.format} has one frame. Ask for an image format (f_jpeg for a still).`);
  }
  const over = (detail: string, extensions: Record<string, number>) => new ProblemError("image_too_large", `${detail} Ask for an image format, or a shorter animation.`, { extensions });
  if (animation.frames > VIDEO_LIMITS.max_frames) {
    throw over(`The animation has ${animation.frames} frames; a video may have ${VIDEO_LIMITS.max_frames}.`, { limit_frames: VIDEO_LIMITS.max_frames });
  }
  const pixels = source.width * source.height * animation.frames;
  if (pixels > VIDEO_LIMITS.max_total_pixels) {
    throw over(`The animation has ${pixels} pixels across its frames; a video may have ${VIDEO_LIMITS.max_total_pixels}.`, { limit_total_pixels: VIDEO_LIMITS.max_total_pixels });
  }
  const duration = animation.delay.reduce((sum, delay) => sum + delay, 0);
  if (duration > VIDEO_LIMITS.max_duration_ms) {
    throw over(`The animation plays for ${duration} ms; a video may play for ${VIDEO_LIMITS.max_duration_ms} ms.`, { limit_duration_ms: VIDEO_LIMITS.max_duration_ms });
  }
  return animation.delay;
}

// Every frame through the transform's steps, stacked top to bottom as opaque RGB. An encode that
// fails after this is ffmpeg's failure (a 500), not the source's.
async function shapedFrames(input: Uint8Array, source: SourceImage, options: TransformOptions, overlayBytes: Uint8Array | null) {
  try {
    const { image } = await runSteps(input, source, transformSteps(options, source, OPAQUE_FORMAT, overlayBytes), { animated: true });
    return await image.removeAlpha().toColourspace("srgb").raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw decodeFailure(error);
  }
}

export async function animationToVideo(input: Uint8Array, source: SourceImage, options: TransformOptions & { video: VideoFormat }, overlayBytes: Uint8Array | null): Promise<EncodedVideo> {
  const { video } = options;
  const delay = checkVideoSource(source, video);
  const { data, info } = await shapedFrames(input, source, options, overlayBytes);
  const shaped: FrameSize = { width: info.width, height: info.height / delay.length };
  const frameBytes = shaped.width * shaped.height * 3;
  const frame = (i: number) => evenFrame(data.subarray(i * frameBytes, (i + 1) * frameBytes), shaped, VIDEO_ENCODERS[video].evenSides);
  const size = frame(0).size;
  const bytes = await runFfmpeg({
    args: (file) => videoArgs(video, file, delay.at(-1) ?? 0),
    extension: VIDEO_ENCODERS[video].extension,
    what: "The video encode",
    feed: async (write) => {
      await write(apngStart(size, delay.length));
      for (let i = 0; i < delay.length; i++) {
        checkDeadline("The video encode");
        await write(apngFrame(i, frame(i).rgb, size, delay[i]!));
      }
      await write(APNG_END);
    },
  });
  return { bytes, format: video, ...size };
}
