// Faces for the detector's tests and bench, drawn here: a shaded oval with hair, brows, eyes with
// irises, a nose and lips, on a sky-like gradient. tiny_face_detector finds each one drawn at 80 to
// 200 px across in a picture of up to 1200 px (scores 0.7 to 0.9, measured); a picture without one
// finds none.
import sharp from "sharp";

/** Where a face is drawn: its centre and its half-width in pixels (the oval is 1.3 times as tall). */
export interface DrawnFace {
  cx: number;
  cy: number;
  size: number;
}

function face({ cx, cy, size: s }: DrawnFace): string {
  const at = (dx: number, dy: number) => `${cx + dx * s} ${cy + dy * s}`;
  return `
  <ellipse cx="${cx}" cy="${cy - 0.15 * s}" rx="${0.62 * s}" ry="${0.75 * s}" fill="#3b2314"/>
  <rect x="${cx - 0.22 * s}" y="${cy + 0.6 * s}" width="${0.44 * s}" height="${0.5 * s}" fill="#d9a07a"/>
  <ellipse cx="${cx}" cy="${cy}" rx="${0.5 * s}" ry="${0.65 * s}" fill="url(#skin)"/>
  <path d="M ${at(-0.34, -0.3)} q ${0.14 * s} ${-0.09 * s} ${0.26 * s} 0" stroke="#2a1a10" stroke-width="${0.05 * s}" fill="none"/>
  <path d="M ${at(0.08, -0.3)} q ${0.12 * s} ${-0.09 * s} ${0.26 * s} 0" stroke="#2a1a10" stroke-width="${0.05 * s}" fill="none"/>
  ${[-0.2, 0.2]
    .map(
      (side) => `<ellipse cx="${cx + side * s}" cy="${cy - 0.15 * s}" rx="${0.11 * s}" ry="${0.055 * s}" fill="#fff"/>
  <circle cx="${cx + side * s}" cy="${cy - 0.15 * s}" r="${0.05 * s}" fill="#3a2a1a"/>
  <circle cx="${cx + side * s}" cy="${cy - 0.15 * s}" r="${0.022 * s}" fill="#000"/>`,
    )
    .join("")}
  <path d="M ${at(0, -0.1)} L ${at(-0.07, 0.12)} Q ${at(0, 0.17)} ${at(0.07, 0.12)}" stroke="#a86c4c" stroke-width="${0.02 * s}" fill="none"/>
  <path d="M ${at(-0.16, 0.3)} Q ${at(0, 0.38)} ${at(0.16, 0.3)} Q ${at(0, 0.44)} ${at(-0.16, 0.3)}" fill="#b0504a"/>`;
}

/** A PNG of `width` x `height` with the faces drawn on it (none: the gradient and a few shapes). */
export async function drawnFaces(width: number, height: number, faces: readonly DrawnFace[]): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <radialGradient id="skin" cx="45%" cy="40%" r="65%"><stop offset="0" stop-color="#f2c6a0"/><stop offset="0.7" stop-color="#dba27c"/><stop offset="1" stop-color="#b97c58"/></radialGradient>
    <linearGradient id="sky" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6a8caf"/><stop offset="1" stop-color="#c8d6e0"/></linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>
  <circle cx="${width * 0.2}" cy="${height * 0.75}" r="${height * 0.12}" fill="#5a7d3a"/>
  <rect x="${width * 0.45}" y="${height * 0.65}" width="${width * 0.2}" height="${height * 0.3}" fill="#8a6d4a"/>
  ${faces.map(face).join("")}
</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}
