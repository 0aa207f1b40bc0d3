// How each video format is encoded: ffmpeg's arguments for the frames as an APNG (apng-stream.ts).
// Every frame keeps its own timestamp (passthrough, a 1 ms time base); ffmpeg 5.1 gives the last
// frame the duration of one frame at the output rate, so that rate is set from the last delay.
// H.264 without B-frames: reordered frames need an edit list to start at 0 (ffprobe then reports
// the stream shorter than its frames' times), for 1% more bytes. VP9 at libvpx's "good" speed 5:
// speed 4 took 53% more CPU for 6% fewer bytes. Both measured on a real 150-frame 640x421 terminal
// recording GIF, ffmpeg alone; the encode must fit the call's deadline.
import type { VideoFormat } from "../../../contracts/transform/token-values.ts";

export interface VideoEncoder {
  /** The container's file extension. */
  extension: string;
  /** Whether the picture's sides must be even (4:2:0 H.264 refuses an odd side). */
  evenSides: boolean;
  codecArgs: string[];
}

export const VIDEO_ENCODERS: Record<VideoFormat, VideoEncoder> = {
  mp4: {
    extension: "mp4",
    evenSides: true,
    // faststart: the index (moov) before the frames (mdat), so playback starts before the download ends.
    codecArgs: ["-c:v", "libx264", "-preset", "medium", "-crf", "23", "-bf", "0", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-video_track_timescale", "1000"],
  },
  webm: {
    extension: "webm",
    evenSides: false,
    codecArgs: ["-c:v", "libvpx-vp9", "-crf", "34", "-b:v", "0", "-deadline", "good", "-cpu-used", "5", "-row-mt", "1", "-pix_fmt", "yuv420p"],
  },
};

/** ffmpeg's arguments, output file excepted, for the APNG `input` whose last frame shows for `lastDelayMs`. */
export function videoArgs(format: VideoFormat, input: string, lastDelayMs: number): string[] {
  return [
    "-f",
    "apng",
    "-i",
    input,
    "-an",
    "-fps_mode",
    "passthrough",
    "-enc_time_base",
    "1:1000",
    "-r",
    `1000/${Math.max(1, Math.round(lastDelayMs))}`,
    ...VIDEO_ENCODERS[format].codecArgs,
    "-map_metadata",
    "-1",
    "-y",
  ];
}
