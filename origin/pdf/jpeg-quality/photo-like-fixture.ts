import sharp from "sharp";
import type { JpegOptions } from "sharp";

const WIDTH = 96;
const HEIGHT = 64;

/** Smooth colour gradients plus seeded noise: content that exercises every DCT band. */
function photoLikePixels(): Buffer {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  let seed = 0x2545f491;
  const noise = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 24) - 128;
  };
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const at = (y * WIDTH + x) * 3;
      pixels[at] = clampByte((x / WIDTH) * 255 + noise() / 4);
      pixels[at + 1] = clampByte((y / HEIGHT) * 255 + noise() / 4);
      pixels[at + 2] = clampByte(128 + 100 * Math.sin((x + y) / 7) + noise() / 8);
    }
  }
  return pixels;
}

function clampByte(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

const pixels = photoLikePixels();

export async function encodePhotoLike(options: JpegOptions, grayscale = false): Promise<Uint8Array> {
  const image = sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });
  return new Uint8Array(await (grayscale ? image.toColourspace("b-w") : image).jpeg(options).toBuffer());
}
