// What a video holds, read back by Debian's ffprobe and ffmpeg (the tools the origin encodes with):
// its stream, each frame's time, its top-level boxes, and its first frame as a PNG.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ProbedVideo {
  codec: string;
  pixFmt: string;
  width: number;
  height: number;
  /** Each frame's presentation time in ms, as decoded. */
  frameTimesMs: number[];
  durationMs: number;
}

function withFile<T>(bytes: Uint8Array, read: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "pixelpress-probe-"));
  try {
    const path = join(dir, "video");
    writeFileSync(path, bytes);
    return read(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ProbeJson {
  streams: { codec_name: string; pix_fmt: string; width: number; height: number }[];
  frames: { pts_time?: string; best_effort_timestamp_time?: string }[];
  format: { duration: string };
}

export function probeVideo(bytes: Uint8Array): ProbedVideo {
  return withFile(bytes, (path) => {
    const args = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,pix_fmt,width,height:frame=pts_time,best_effort_timestamp_time:format=duration", "-show_frames", "-of", "json", path];
    const probed = JSON.parse(execFileSync("ffprobe", args, { encoding: "utf8" })) as ProbeJson;
    const stream = probed.streams[0]!;
    const time = (frame: ProbeJson["frames"][number]) => Math.round(Number(frame.pts_time ?? frame.best_effort_timestamp_time) * 1000);
    return {
      codec: stream.codec_name,
      pixFmt: stream.pix_fmt,
      width: stream.width,
      height: stream.height,
      frameTimesMs: probed.frames.map(time),
      durationMs: Math.round(Number(probed.format.duration) * 1000),
    };
  });
}

/** The first frame, decoded by ffmpeg, as a PNG. */
export function firstFramePng(bytes: Uint8Array): Uint8Array {
  return withFile(bytes, (path) => new Uint8Array(execFileSync("ffmpeg", ["-v", "error", "-i", path, "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "pipe:1"])));
}

/** The types of an ISO BMFF (MP4) file's top-level boxes, in order. */
export function topLevelBoxes(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= bytes.byteLength; ) {
    // A size of 1: the real size follows as 64 bits.
    const size = view.getUint32(at) === 1 ? Number(view.getBigUint64(at + 8)) : view.getUint32(at);
    boxes.push(String.fromCharCode(...bytes.subarray(at + 4, at + 8)));
    if (size < 8) break;
    at += size;
  }
  return boxes;
}
