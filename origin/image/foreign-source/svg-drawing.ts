// SVG logos and icons, rasterised by librsvg (inside sharp) at the size the request asks for, so a
// 24-unit icon asked at 800 px is drawn at 800 px, not enlarged from 24 pixels. librsvg runs no
// script and loads nothing for a document given as bytes; references to anything outside the
// document are removed here as well, so no change in the renderer can make a URL of a customer's
// SVG reach the network. Entity declarations (the billion-laughs bomb) and deep nesting are refused
// before librsvg parses anything, and filters whose drawing would cost more than the budget
// (contracts/limits/drawing.ts) before librsvg draws anything. This runs in an SVG child process
// (svg.ts): librsvg cannot be stopped mid-drawing, a process can be killed.
import sharp from "sharp";
import { SVG_FILTER_DRAWING_BUDGET } from "../../../contracts/limits/drawing.ts";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import type { RasterTarget } from "./raster-target.ts";

const MAX_NESTING = 256;
const MAX_SIDE = 16_384;
// librsvg's own unit: a user unit is one pixel at 72 dpi.
const BASE_DENSITY = 72;

function refuse(detail: string): never {
  throw new ProblemError("image_unreadable", `The SVG is refused: ${detail}.`);
}

/** The document with every reference that is not to itself (`#id`) or inline (`data:`) emptied. */
export function withoutExternalReferences(svg: string): string {
  const local = (value: string) => /^\s*(#|data:)/i.test(value);
  return svg
    .replace(/(\b(?:xlink:)?href\s*=\s*)(["'])(.*?)\2/gis, (whole, name: string, quote: string, value: string) => (local(value) ? whole : `${name}${quote}${quote}`))
    .replace(/url\(\s*(["']?)(.*?)\1\s*\)/gis, (whole, _quote: string, value: string) => (local(value) ? whole : "none"))
    .replace(/@import[^;]*;?/gi, "");
}

function checkStructure(svg: string): void {
  if (/<!ENTITY/i.test(svg) || /<!DOCTYPE[^>]*\[/i.test(svg)) refuse("it declares entities");
  let depth = 0;
  for (const tag of svg.matchAll(/<(\/?)([A-Za-z][\w:.-]*)[^>]*?(\/?)>/g)) {
    if (tag[1]) depth--;
    else if (!tag[3]) depth++;
    if (depth > MAX_NESTING) refuse(`its elements nest more than ${MAX_NESTING} deep`);
  }
}

/** The pixel size that covers the asked box from the declared size, within the pixel limits. */
function rasterSize(declared: { width: number; height: number }, target: RasterTarget, maxPixels: number) {
  const asked = Math.max(target.width ? target.width / declared.width : 0, target.height ? target.height / declared.height : 0);
  const fitsPixels = Math.sqrt(maxPixels / (declared.width * declared.height));
  const fitsSide = MAX_SIDE / Math.max(declared.width, declared.height);
  const scale = Math.min(asked > 0 ? asked : 1, fitsPixels, fitsSide);
  return { width: Math.max(1, Math.round(declared.width * scale)), height: Math.max(1, Math.round(declared.height * scale)) };
}

/**
 * How many times librsvg runs a filter: each element that names one, and, in a document with
 * filters, each <use> (which may repeat a filtered element). Counted in the text, an upper bound.
 */
function filterRuns(svg: string): number {
  const named = svg.match(/\bfilter\s*[:=]\s*["']?\s*url\(/gi)?.length ?? 0;
  return named === 0 ? 0 : named + (svg.match(/<use\b/gi)?.length ?? 0);
}

/** librsvg draws the whole document again for each strip of the raster, so a filter costs pixels times height. */
function checkFilterCost(svg: string, size: { width: number; height: number }): void {
  const cost = filterRuns(svg) * size.width * size.height * size.height;
  if (cost <= SVG_FILTER_DRAWING_BUDGET) return;
  throw new ProblemError(
    "drawing_too_complex",
    `The SVG's filters drawn at ${size.width}x${size.height} would cost ${cost} (filter runs x pixels x height); the limit is ${SVG_FILTER_DRAWING_BUDGET}. Ask a smaller size. Not charged.`,
    { extensions: { estimated_cost: cost, limit: SVG_FILTER_DRAWING_BUDGET } },
  );
}

/**
 * The document with its root sized to the raster, so librsvg draws the vector at that size. A
 * root without a viewBox gets its declared size as one, so its content scales with it. A density
 * cannot do this: sharp takes none under 1, and a bomb's declared size needs far less.
 */
function sizedDocument(svg: string, size: { width: number; height: number }, declared: { width: number; height: number }): string {
  return svg.replace(/<svg\b([^>]*)>/i, (_whole, attributes: string) => {
    const rest = attributes.replace(/\s(width|height)\s*=\s*(["']).*?\2/gi, "");
    const viewBox = /\sviewBox\s*=/i.test(rest) ? "" : ` viewBox="0 0 ${declared.width} ${declared.height}"`;
    return `<svg${rest} width="${size.width}" height="${size.height}"${viewBox}>`;
  });
}

export async function drawSvg(bytes: Uint8Array, target: RasterTarget, maxPixels: number): Promise<Uint8Array> {
  const text = new TextDecoder().decode(bytes);
  checkStructure(text);
  const clean = withoutExternalReferences(text);
  let declared;
  try {
    declared = await sharp(Buffer.from(clean), { density: BASE_DENSITY, limitInputPixels: false }).metadata();
  } catch (error) {
    refuse(`it cannot be parsed (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!declared.width || !declared.height) refuse("it has no size");
  const size = rasterSize({ width: declared.width, height: declared.height }, target, maxPixels);
  checkFilterCost(clean, size);
  try {
    const document = Buffer.from(sizedDocument(clean, size, { width: declared.width, height: declared.height }));
    return new Uint8Array(await sharp(document, { density: BASE_DENSITY, limitInputPixels: maxPixels }).png({ compressionLevel: 1 }).toBuffer());
  } catch (error) {
    refuse(`it cannot be drawn (${error instanceof Error ? error.message : String(error)})`);
  }
}
