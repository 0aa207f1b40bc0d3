// f_mp4 and f_webm at the origin, through transformImage as the route calls it, with the real
// ffmpeg; every output is read back by ffprobe and decoded by ffmpeg.
import sharp from "sharp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VIDEO_LIMITS } from "../../../contracts/limits/video.ts";
import { originTransformSchema, type OriginTransformOptions } from "../../../contracts/origin/image-transform.ts";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { FRAME_COLOURS } from "../../../test/fixtures/animated-fixture.ts";
import { animatedImage, animatedWebpHeaderOnly } from "../../../test/fixtures/animated-images.ts";
import { runWithTicket } from "../../worker-pool/deadline.ts";
import { meanColour, photoLikePixels, pixelDistance } from "../test-support/synthetic-images.ts";
import { firstFramePng, probeVideo, topLevelBoxes } from "../test-support/video-probe.ts";
import { transformImage } from "../transform-image.ts";
import { runFfmpeg } from "./ffmpeg.ts";

const DELAY = [80, 120, 200, 500];
const startsOf = (delays: number[]) => delays.map((_, i) => delays.slice(0, i).reduce((sum, d) => sum + d, 0));
const total = (delays: number[]) => delays.reduce((sum, d) => sum + d, 0);

const transform = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "source", ...options }));

async function refusal(work: Promise<unknown>): Promise<ProblemError> {
  const error: unknown = await work.then(() => null, (caught: unknown) => caught);
  if (!(error instanceof ProblemError)) throw new Error(`expected a problem, got ${String(error)}`);
  return error;
}

/** An animated GIF of a photo-like picture, mirrored on every other frame, so a decoded frame can be told from the next. */
async function photoGif(width: number, height: number, delay: number[]): Promise<Uint8Array> {
  const picture = photoLikePixels(width, height);
  const mirrored = await sharp(picture, { raw: { width, height, channels: 3 } }).flop().raw().toBuffer();
  const frames = delay.map((_, i) => (i % 2 === 0 ? picture : mirrored));
  const stacked = sharp(Buffer.concat(frames), { raw: { width, height: height * delay.length, channels: 3, pageHeight: height } });
  return new Uint8Array(await stacked.gif({ delay, loop: 0 }).toBuffer());
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("an animated GIF or WebP as a video", () => {
  it("f_mp4: H.264 in yuv420p, its index before its frames, every frame at the GIF's own time, the first frame the GIF's", async () => {
    const gif = await photoGif(96, 64, DELAY);
    const out = await transform(gif, { video: "mp4" });
    expect([out.format, out.width, out.height]).toEqual(["mp4", 96, 64]);
    expect(probeVideo(out.bytes)).toEqual({ codec: "h264", pixFmt: "yuv420p", width: 96, height: 64, frameTimesMs: startsOf(DELAY), durationMs: total(DELAY) });
    const boxes = topLevelBoxes(out.bytes);
    expect(boxes.indexOf("moov")).toBeGreaterThan(-1);
    expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"));
    const gifFirst = await sharp(gif, { page: 0 }).png().toBuffer();
    const gifSecond = await sharp(gif, { page: 1 }).png().toBuffer();
    const videoFirst = firstFramePng(out.bytes);
    expect(await pixelDistance(videoFirst, gifFirst)).toBeLessThan(8);
    expect(await pixelDistance(videoFirst, gifSecond)).toBeGreaterThan(20);
  });

  it("f_webm of an animated WebP: VP9 in yuv420p with its frames and timing, resized by w_", async () => {
    const webp = await animatedImage("webp", { width: 64, height: 48, delay: DELAY });
    const out = await transform(webp, { video: "webm", width: 32 });
    expect([out.format, out.width, out.height]).toEqual(["webm", 32, 24]);
    expect(probeVideo(out.bytes)).toEqual({ codec: "vp9", pixFmt: "yuv420p", width: 32, height: 24, frameTimesMs: startsOf(DELAY), durationMs: total(DELAY) });
    (await meanColour(firstFramePng(out.bytes))).forEach((v, i) => expect(Math.abs(v - FRAME_COLOURS[0][i]!)).toBeLessThan(16));
  });

  it("an odd side: widened by one copied pixel for H.264, kept for VP9", async () => {
    const gif = await animatedImage("gif", { width: 33, height: 21, delay: [100, 100] });
    const mp4 = await transform(gif, { video: "mp4" });
    const webm = await transform(gif, { video: "webm" });
    expect([mp4.width, mp4.height, webm.width, webm.height]).toEqual([34, 22, 33, 21]);
    expect(probeVideo(mp4.bytes)).toMatchObject({ width: 34, height: 22, frameTimesMs: [0, 100] });
    const corner = await sharp(firstFramePng(mp4.bytes)).extract({ left: 32, top: 20, width: 2, height: 2 }).png().toBuffer();
    (await meanColour(corner)).forEach((v, i) => expect(Math.abs(v - FRAME_COLOURS[0][i]!)).toBeLessThan(24));
  });

  it("transparency is flattened onto bg_, white without it", async () => {
    // Two clear frames, the second with one opaque pixel, so the encoder keeps both.
    const clear = Buffer.alloc(32 * 64 * 4);
    clear.set([255, 0, 0, 255], (32 * 63 + 31) * 4);
    const gif = await sharp(clear, { raw: { width: 32, height: 64, channels: 4, pageHeight: 32 } }).gif({ delay: [100, 100] }).toBuffer();
    for (const [background, expected] of [[undefined, [255, 255, 255]], ["0000ff", [0, 0, 255]]] as const) {
      const out = await transform(gif, { video: "mp4", background });
      (await meanColour(firstFramePng(out.bytes))).forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThan(16));
    }
  });

  it("the poster is f_jpeg,pg_1: the first frame as a JPEG", async () => {
    const gif = await photoGif(96, 64, DELAY);
    const poster = await transform(gif, { output: "jpeg", page: 1 });
    expect([poster.format, poster.width, poster.height]).toEqual(["jpeg", 96, 64]);
    expect((await sharp(poster.bytes).metadata()).pages ?? 1).toBe(1);
    expect(await pixelDistance(poster.bytes, await sharp(gif, { page: 0 }).png().toBuffer())).toBeLessThan(8);
  });
});

describe("what cannot be a video", () => {
  it("a still image is 422 unprocessable, naming the token", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } }).png().toBuffer();
    const problem = await refusal(transform(png, { video: "mp4" }));
    expect([problem.slug, problem.status]).toEqual(["unprocessable", 422]);
    expect(problem.message).toContain("f_mp4");
  });

  it("over the frame, pixel or duration limit is 413 image_too_large, from the header", async () => {
    const side = Math.ceil(Math.sqrt(VIDEO_LIMITS.max_total_pixels / 10));
    const cases: [Uint8Array, string][] = [
      [animatedWebpHeaderOnly(16, 16, VIDEO_LIMITS.max_frames + 1), "limit_frames"],
      [animatedWebpHeaderOnly(side, side, 11), "limit_total_pixels"],
      [await animatedImage("gif", { width: 8, height: 8, delay: [VIDEO_LIMITS.max_duration_ms / 2, VIDEO_LIMITS.max_duration_ms / 2 + 10] }), "limit_duration_ms"],
    ];
    for (const [source, limit] of cases) {
      const problem = await refusal(transform(source, { video: "webm" }));
      expect([problem.slug, problem.status, Object.keys(problem.extensions)]).toEqual(["image_too_large", 413, [limit]]);
    }
  });

  it("without ffmpeg it is 501 encoder_unavailable naming the tool", async () => {
    vi.stubEnv("PIXELPRESS_FFMPEG", "/nonexistent/ffmpeg");
    const gif = await animatedImage("gif", { width: 16, height: 16, delay: [100, 100] });
    const problem = await refusal(transform(gif, { video: "mp4" }));
    expect([problem.slug, problem.status, problem.extensions]).toEqual(["encoder_unavailable", 501, { tool: "ffmpeg" }]);
    expect(problem.message).toContain("ffmpeg");
  });

  it("an encode still running at the call's deadline is killed and answered processing_timeout", async () => {
    // ffmpeg's own test pattern never ends: only the deadline stops it.
    const endless = () => runFfmpeg({ args: () => ["-f", "lavfi", "-i", "testsrc=size=64x64:rate=25", "-f", "null"], extension: "null", what: "The video encode", feed: async () => {} });
    const problem = await refusal(runWithTicket({ deadlineAt: Date.now() + 500 }, endless));
    expect(problem.slug).toBe("processing_timeout");
  });
});
