// Tells photographs from flat graphics on a grid sample of the pixels: photos go
// to JPEG, flat images stay lossless, line art gets whichever encoding is smaller.
// Few colours without runs (a dithered or palettised photo) counts as line art,
// so it is tried both ways rather than assumed flat.
import type { RawPixels } from "./raw-pixels.ts";

export type PixelContent = "flat" | "line-art" | "photo";

const SAMPLE_PIXELS = 65_536;
const FLAT_MAX_COLOURS = 256;
const LINE_ART_MIN_REPEAT = 0.6;
const FLAT_MIN_REPEAT = 0.3;

export function classifyPixels(pixels: RawPixels): PixelContent {
  const { data, width, height, channels } = pixels;
  const step = Math.max(1, Math.floor(Math.sqrt((width * height) / SAMPLE_PIXELS)));
  const colours = new Set<number>();
  let repeats = 0;
  let pairs = 0;
  const colourAt = (x: number, y: number) => {
    const at = (y * width + x) * channels;
    let key = 0;
    for (let c = 0; c < channels; c++) key = key * 256 + (data[at + c] ?? 0);
    return key;
  };
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x + 1 < width; x += step) {
      const here = colourAt(x, y);
      if (colours.size <= FLAT_MAX_COLOURS) colours.add(here);
      if (here === colourAt(x + 1, y)) repeats++;
      pairs++;
    }
  }
  const repeatShare = pairs > 0 ? repeats / pairs : 1;
  if (colours.size <= FLAT_MAX_COLOURS) return repeatShare >= FLAT_MIN_REPEAT ? "flat" : "line-art";
  return repeatShare >= LINE_ART_MIN_REPEAT ? "line-art" : "photo";
}
