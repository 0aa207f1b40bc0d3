// How sharp an image drawn at a given DPI looks, in four bands, each with the colour its box and
// badge take on a page picture. The number is always written beside the colour, so the colour
// never carries the fact alone; white text on each colour has at least 4.5:1 contrast.

export interface DpiBand {
  id: "print" | "zoom" | "screen" | "soft";
  /** The lowest DPI in the band. */
  min: number;
  label: string;
  colour: string;
}

/** From the sharpest down: the first band whose `min` a DPI reaches is its band. */
export const DPI_BANDS: readonly DpiBand[] = [
  { id: "print", min: 300, label: "300 dpi and up: sharp in print", colour: "#047857" },
  { id: "zoom", min: 150, label: "150–299 dpi: sharp on screen, zoomed in too", colour: "#1d4ed8" },
  { id: "screen", min: 72, label: "72–149 dpi: fine on screen at 100%", colour: "#b45309" },
  { id: "soft", min: 0, label: "under 72 dpi: soft even on screen", colour: "#b91c1c" },
];

export function dpiBand(dpi: number): DpiBand {
  return DPI_BANDS.find((band) => dpi >= band.min) ?? DPI_BANDS[DPI_BANDS.length - 1]!;
}
