// Saturation (transform `sat_<-100..100>`): each pixel moved away from or towards its own grey
// (Rec. 709 luminance) by a factor from 0 (greyscale, R = G = B exactly) to 2. One matrix over the
// colour channels, alpha untouched. Before the fit, so contain's padding (bg_) keeps its colour.
import { adjustNow, type ImageStep } from "./image-step.ts";

const LUMINANCE = [0.2126, 0.7152, 0.0722] as const;

type Row = [number, number, number];

/** out = grey + factor * (in - grey), as a 3x3 matrix over R, G and B. */
export function saturationMatrix(percent: number): [Row, Row, Row] {
  const factor = 1 + percent / 100;
  const row = (channel: number): Row => [0, 1, 2].map((j) => (1 - factor) * LUMINANCE[j]! + (j === channel ? factor : 0)) as Row;
  return [row(0), row(1), row(2)];
}

export function saturation(percent: number | undefined): ImageStep {
  return async (work) => {
    if (percent === undefined) return;
    const matrix = saturationMatrix(percent);
    await adjustNow(work, (image) => image.recomb(matrix));
  };
}
