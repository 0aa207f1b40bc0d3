// Gamma (transform `gam_<0.1..10>`): each colour channel becomes channel^(1/gamma) on a 0 to 1
// scale, so black and white stay and above 1 lightens the mid-tones. sharp's own gamma is tied to
// its resize (and takes 1 to 3 only), so the step maps the rendered pixels through a 256-entry
// table. Before the fit, so contain's padding (bg_) keeps its colour.
import { mapColourChannels, type ImageStep } from "./image-step.ts";

export function gammaTable(gamma: number): Uint8Array {
  const table = new Uint8Array(256);
  for (let value = 0; value < 256; value++) table[value] = Math.round(255 * (value / 255) ** (1 / gamma));
  return table;
}

export function gamma(exponent: number | undefined): ImageStep {
  return async (work) => {
    if (exponent === undefined) return;
    await mapColourChannels(work, gammaTable(exponent));
  };
}
