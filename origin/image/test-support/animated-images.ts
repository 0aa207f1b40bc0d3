// Animated sources for tests, made with sharp: frames of distinct solid colours joined into one
// animation, so a test can count frames, read their timing back and check which frame it got.
import sharp from "sharp";

export const FRAME_COLOURS = [
  [255, 0, 0],
  [0, 160, 0],
  [0, 0, 255],
  [255, 200, 0],
] as const;

export interface AnimatedSpec {
  width: number;
  height: number;
  delay: number[];
  loop?: number;
}

/** An animated GIF or WebP of `delay.length` solid frames, cycling through FRAME_COLOURS. */
export async function animatedImage(format: "gif" | "webp", spec: AnimatedSpec): Promise<Uint8Array> {
  const { width, height, delay, loop = 0 } = spec;
  const frames = delay.length;
  const raw = Buffer.alloc(width * height * frames * 3);
  for (let f = 0; f < frames; f++) {
    const colour = FRAME_COLOURS[f % FRAME_COLOURS.length]!;
    for (let p = 0; p < width * height; p++) raw.set(colour, (f * width * height + p) * 3);
  }
  const image = sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } });
  const encoded = format === "gif" ? image.gif({ delay, loop }) : image.webp({ delay, loop, lossless: true });
  return new Uint8Array(await encoded.toBuffer());
}

/**
 * An animated WebP whose headers claim `frames` frames of width x height, each frame's bitstream
 * only a VP8L header: enough for the header read, nothing a decoder could render. It costs a few
 * hundred bytes to make a source that would be gigapixels decoded.
 */
export function animatedWebpHeaderOnly(width: number, height: number, frames: number): Uint8Array {
  const chunk = (fourcc: string, payload: Buffer) => {
    const size = Buffer.alloc(4);
    size.writeUInt32LE(payload.length);
    return Buffer.concat([Buffer.from(fourcc, "ascii"), size, payload, Buffer.alloc(payload.length % 2)]);
  };
  const uint24 = (value: number) => Buffer.from([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]);
  // VP8X flags: animation (bit 1).
  const vp8x = chunk("VP8X", Buffer.concat([Buffer.from([0x02, 0, 0, 0]), uint24(width - 1), uint24(height - 1)]));
  const anim = chunk("ANIM", Buffer.from([0, 0, 0, 0, 0, 0]));
  const bits = (width - 1) | ((height - 1) << 14);
  const vp8lHeader = Buffer.alloc(5);
  vp8lHeader[0] = 0x2f;
  vp8lHeader.writeUInt32LE(bits >>> 0, 1);
  const vp8l = chunk("VP8L", Buffer.concat([vp8lHeader, Buffer.alloc(8)]));
  const anmf = chunk(
    "ANMF",
    Buffer.concat([uint24(0), uint24(0), uint24(width - 1), uint24(height - 1), uint24(100), Buffer.from([0]), vp8l]),
  );
  const body = Buffer.concat([Buffer.from("WEBP", "ascii"), vp8x, anim, ...Array.from({ length: frames }, () => anmf)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return new Uint8Array(Buffer.concat([Buffer.from("RIFF", "ascii"), size, body]));
}
