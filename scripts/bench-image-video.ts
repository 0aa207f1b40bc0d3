// bench:image's video part: an animated GIF as f_mp4 and f_webm beside the GIF itself and its
// animated f_webp, bytes and seconds from the origin's transform in-process (ffmpeg included), in
// one run. Inputs: two generated animations, then every GIF and animated WebP in CORPUS_DIR's
// img/animated/ (real-world files never sit in the repository). Prints figures and ratios; asserts none.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { originTransformSchema, type OriginTransformOptions } from "../contracts/origin/image-transform.ts";
import { transformImage } from "../origin/image/transform-image.ts";
import { CORPUS_DIR } from "../test/support/corpus-dir.ts";
import { photoLikePixels } from "../origin/image/test-support/synthetic-images.ts";

interface Animation {
  name: string;
  bytes: Uint8Array;
}

async function gifOf(frames: Buffer[], width: number, height: number, delay: number): Promise<Uint8Array> {
  const stacked = sharp(Buffer.concat(frames), { raw: { width, height: height * frames.length, channels: 3, pageHeight: height } });
  return new Uint8Array(await stacked.gif({ delay: frames.map(() => delay), loop: 0 }).toBuffer());
}

/** A camera pan: a 480x270 window sliding across a photo-like picture, 60 frames at 10 fps. */
async function pan(): Promise<Animation> {
  const [width, height, frames] = [480, 270, 60];
  const picture = photoLikePixels(width * 2, height, 7);
  const window = (x: number) => sharp(picture, { raw: { width: width * 2, height, channels: 3 } }).extract({ left: x, top: 0, width, height }).raw().toBuffer();
  const shots = await Promise.all(Array.from({ length: frames }, (_, i) => window(Math.round((i * width) / frames))));
  return { name: "generated pan 480x270x60", bytes: await gifOf(shots, width, height, 100) };
}

/** A flat-colour loop: discs moving over a plain background, 40 frames at 25 fps. */
async function cartoon(): Promise<Animation> {
  const [width, height, frames] = [400, 300, 40];
  const frame = (i: number) => {
    const discs = Array.from({ length: 6 }, (_, d) => `<circle cx="${(d * 70 + i * 8) % width}" cy="${60 + d * 35}" r="30" fill="hsl(${d * 60},80%,50%)"/>`).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fdf6e3"/>${discs}</svg>`;
    return sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  };
  const shots = await Promise.all(Array.from({ length: frames }, (_, i) => frame(i)));
  return { name: "generated cartoon 400x300x40", bytes: await gifOf(shots, width, height, 40) };
}

function corpusAnimations(): Animation[] {
  const folder = path.join(CORPUS_DIR, "img", "animated");
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((file) => /\.(gif|webp)$/i.test(file))
    .sort()
    .map((file) => ({ name: file, bytes: new Uint8Array(fs.readFileSync(path.join(folder, file))) }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The output's bytes and the median seconds of `rounds` transforms after one warm-up. */
async function measured(bytes: Uint8Array, options: Partial<OriginTransformOptions>, rounds: number): Promise<{ bytes: number; seconds: number }> {
  const run = () => transformImage(bytes, originTransformSchema.parse({ quality: 76, output: "source", ...options }));
  const out = await run();
  const seconds: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run();
    seconds.push((performance.now() - started) / 1000);
  }
  return { bytes: out.bytes.byteLength, seconds: median(seconds) };
}

export async function videoBench(rounds: number): Promise<void> {
  console.log(`\nAnimated GIF to video at the origin (in-process, ffmpeg included), median of ${rounds} rounds: bytes, seconds, and bytes against the GIF and the animated f_webp`);
  const animations = [await pan(), await cartoon(), ...corpusAnimations()];
  if (animations.length === 2) console.log(`(no real animations: put GIFs or animated WebPs in ${path.join(CORPUS_DIR, "img", "animated")})`);
  console.log("input                          frames   GIF bytes  f_webp bytes      s  f_mp4 bytes      s  /GIF /webp  f_webm bytes      s  /GIF /webp");
  for (const { name, bytes } of animations) {
    const frames = (await sharp(bytes).metadata()).pages ?? 1;
    const webp = await measured(bytes, { output: "webp" }, rounds);
    const mp4 = await measured(bytes, { video: "mp4" }, rounds);
    const webm = await measured(bytes, { video: "webm" }, rounds);
    const cells = (out: { bytes: number; seconds: number }) =>
      `${String(out.bytes).padStart(12)} ${out.seconds.toFixed(2).padStart(6)} ${(out.bytes / bytes.byteLength).toFixed(2).padStart(5)} ${(out.bytes / webp.bytes).toFixed(2).padStart(5)}`;
    console.log(`${name.padEnd(30)} ${String(frames).padStart(6)} ${String(bytes.byteLength).padStart(11)} ${String(webp.bytes).padStart(13)} ${webp.seconds.toFixed(2).padStart(6)} ${cells(mp4)} ${cells(webm)}`);
  }
}
