// CMYK samples to sRGB for the floor's metric, through sharp's CMYK profile as every CMYK image
// is shown to the metric. sharp builds a new lcms transform for each image it converts, about
// 70 ms even for the metric's 192 x 192 sample, and a CMYK image's floor search converts its
// reference and every probe: most of the search. So sharp converts a grid of 17 levels per ink
// once per process (lcms itself evaluates a CMYK transform on a 17-point grid), and each image
// is interpolated in it, quadrilinearly.
import sharp from "sharp";
import type { RawImage } from "../quality/raw-image.ts";
import { cmykTiff } from "./cmyk-tiff.ts";

const LEVELS = 17;
const STEP = 255 / (LEVELS - 1);

let grid: Promise<Uint8Array> | null = null;

/** sRGB of every grid point, ink C slowest and K fastest, three bytes each. */
function srgbGrid(): Promise<Uint8Array> {
  grid ??= (async () => {
    const points = LEVELS ** 4;
    const cmyk = new Uint8Array(points * 4);
    for (let index = 0; index < points; index++) {
      let rest = index;
      for (let ink = 3; ink >= 0; ink--) {
        cmyk[index * 4 + ink] = Math.round((rest % LEVELS) * STEP);
        rest = Math.floor(rest / LEVELS);
      }
    }
    const side = LEVELS * LEVELS;
    const rgb = await sharp(cmykTiff({ data: cmyk, width: side, height: side, channels: 4 }))
      .toColourspace("srgb")
      .raw()
      .toBuffer();
    return new Uint8Array(rgb.buffer, rgb.byteOffset, rgb.byteLength);
  })();
  return grid;
}

/** sRGB of tightly packed CMYK samples, as sharp's CMYK-to-sRGB conversion gives them to within a level or two. */
export async function cmykToSrgb(cmyk: Uint8Array, width: number, height: number): Promise<RawImage> {
  const table = await srgbGrid();
  const count = width * height;
  const out = new Uint8Array(count * 3);
  const strides = [LEVELS ** 3, LEVELS ** 2, LEVELS, 1];
  const base = [0, 0, 0, 0];
  const fraction = [0, 0, 0, 0];
  for (let pixel = 0; pixel < count; pixel++) {
    for (let ink = 0; ink < 4; ink++) {
      const position = (cmyk[pixel * 4 + ink] ?? 0) / STEP;
      const cell = Math.min(LEVELS - 2, Math.floor(position));
      base[ink] = cell;
      fraction[ink] = position - cell;
    }
    let r = 0;
    let g = 0;
    let b = 0;
    for (let corner = 0; corner < 16; corner++) {
      let weight = 1;
      let at = 0;
      for (let ink = 0; ink < 4; ink++) {
        const high = (corner >> (3 - ink)) & 1;
        const f = fraction[ink] ?? 0;
        weight *= high === 1 ? f : 1 - f;
        at += ((base[ink] ?? 0) + high) * (strides[ink] ?? 0);
      }
      if (weight === 0) continue;
      r += weight * (table[at * 3] ?? 0);
      g += weight * (table[at * 3 + 1] ?? 0);
      b += weight * (table[at * 3 + 2] ?? 0);
    }
    out[pixel * 3] = Math.round(r);
    out[pixel * 3 + 1] = Math.round(g);
    out[pixel * 3 + 2] = Math.round(b);
  }
  return { data: out, width, height, channels: 3 };
}
