// The megapixels an image call's pipeline works on, for its deadline (contracts/limits/deadlines.ts):
// the source's upright size from its header, brought down to the box the output is asked to fill, as
// shrink-on-load and the resize bring it down. Read before the call takes its slot, so a header
// sharp cannot read counts nothing here and is refused, clearly, by the pipeline itself.
import sharp, { type Metadata } from "sharp";

export interface OutputBox {
  width?: number | null;
  height?: number | null;
}

export async function workMegapixels(input: Uint8Array, box: OutputBox): Promise<number> {
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return 0;
  }
  const { width, height, orientation } = metadata;
  if (!width || !height) return 0;
  const [upright, uprightHeight] = (orientation ?? 1) >= 5 ? [height, width] : [width, height];
  // A box side scales the image to it; with both, the larger scale (a cover) counts, so the deadline never falls short.
  const scales = [box.width ? box.width / upright : null, box.height ? box.height / uprightHeight : null].filter((scale) => scale !== null);
  const scale = scales.length === 0 ? 1 : Math.min(1, Math.max(...scales));
  return (upright * uprightHeight * scale * scale) / 1e6;
}
