// EXIF orientations 5..8 store the picture turned a quarter, so its upright width is the stored
// height. The one axis-swap rule: the edge plans mezzanines with it, the origin reports and
// resizes upright sizes with it.

export interface Size {
  width: number;
  height: number;
}

export interface StoredSize extends Size {
  /** EXIF orientation 1..8, null when absent. */
  orientation: number | null;
}

export function uprightSize(stored: StoredSize): Size {
  const swapsAxes = stored.orientation !== null && stored.orientation >= 5;
  return swapsAxes ? { width: stored.height, height: stored.width } : { width: stored.width, height: stored.height };
}
