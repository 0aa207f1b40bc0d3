// A small SVG whose drawing is costly: `filters` full-canvas rectangles, each through a Gaussian
// blur, on a `side`-unit canvas. librsvg draws the whole document again for each strip of the
// raster, so its cost grows with pixels times height, whatever the blur's radius.
export function blurredSvg(filters: number, side: number, drawnSide = side): Uint8Array {
  let body = "";
  for (let i = 0; i < filters; i++) {
    body +=
      `<filter id="f${i}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${200 + i}"/></filter>` +
      `<rect width="${side}" height="${side}" fill="#${((i * 37) % 256).toString(16).padStart(2, "0")}8040" filter="url(#f${i})"/>`;
  }
  return new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${drawnSide}" height="${drawnSide}" viewBox="0 0 ${side} ${side}">${body}</svg>`,
  );
}
