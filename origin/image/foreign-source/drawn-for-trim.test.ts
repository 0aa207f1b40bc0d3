import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { originTransformSchema, type OriginTransformOptions } from "../../../contracts/origin/image-transform.ts";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";
import { transformImage } from "../transform-image.ts";
import { trimmedPicture } from "../trim-box.ts";
import { drawnForTrim } from "./drawn-for-trim.ts";
import type { RasterTarget } from "./raster-target.ts";

const run = (input: Uint8Array, options: Partial<OriginTransformOptions>) =>
  transformImage(input, originTransformSchema.parse({ quality: 76, output: "png", ...options }));

/** A 100x100 white SVG with a 20x10 dark mark at (40, 45), a white stripe 2 wide at its middle. */
const paddedMark = new TextEncoder().encode(
  `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><rect width="100" height="100" fill="#fff"/>` +
    `<rect x="40" y="45" width="20" height="10" fill="#123"/><rect x="49" y="45" width="2" height="10" fill="#fff"/></svg>`,
);

/** A US Letter page, white, with a 72x36 pt dark mark and a white stripe 6 pt wide at its middle. */
function paddedMarkPdf(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, {}, "0.1 0.1 0.2 rg 270 378 72 36 re f\n1 1 1 rg 303 378 6 36 re f\n"));
    return doc.saveToBuffer("compress").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

// The mark's grey (#123) in the greyscale rows below.
const MARK_GREY = 33;

/**
 * The grey row through the middle of a PNG: how many of its pixels are white, and how many are
 * neither white nor the mark's grey, an edge's blur and the ringing an enlargement leaves beside it.
 */
async function middleRow(png: Uint8Array) {
  const { data, info } = await sharp(png).flatten({ background: "#ffffff" }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const row = [...data.subarray((info.height >> 1) * info.width, ((info.height >> 1) + 1) * info.width)];
  const white = (v: number) => v >= 247;
  return { width: info.width, height: info.height, soft: row.filter((v) => !white(v) && Math.abs(v - MARK_GREY) > 8).length, white: row.filter(white).length };
}

describe("a drawing under trim_ is drawn so that what the trim keeps fills the box", () => {
  it("an SVG's padded mark at w_400 comes out 400 wide, its stripe's edges as sharp as a drawing at that size", async () => {
    const out = await middleRow((await run(paddedMark, { width: 400, trim: 10 })).bytes);
    expect([out.width, out.height]).toEqual([400, 200]);
    // The stripe is a tenth of the mark: 40 px, with at most two soft pixels at each of the row's
    // four edges (the drawing is made up to two pixels larger than the box, and resized down);
    // enlarged five times, fit_contain's row below had 14.
    expect(out.white).toBeGreaterThanOrEqual(38);
    expect(out.white).toBeLessThanOrEqual(42);
    expect(out.soft).toBeLessThanOrEqual(8);
  });

  it("under fit_contain the mark is not enlarged from the box's drawing, so its edges stay sharp", async () => {
    const out = await middleRow((await run(paddedMark, { width: 400, height: 400, fit: "contain", trim: 10 })).bytes);
    expect(out.width).toBe(400);
    expect(out.soft).toBeLessThanOrEqual(8);
  });

  it("a PDF page's padded mark at w_400 comes out 400 wide and sharp", async () => {
    const out = await middleRow((await run(paddedMarkPdf(), { page: 1, width: 400, trim: 10 })).bytes);
    expect([out.width, out.height]).toEqual([400, 200]);
    expect(out.white).toBeGreaterThanOrEqual(30);
    expect(out.white).toBeLessThanOrEqual(36);
    expect(out.soft).toBeLessThanOrEqual(8);
  });
});

describe("drawnForTrim", () => {
  // Dark squares at the top right and bottom left of white: what differs from the top-left pixel reaches every side.
  const unpadded = new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="#fff"/><rect x="10" width="10" height="10" fill="#123"/><rect y="10" width="10" height="10" fill="#123"/></svg>`,
  );

  /** Draws `svg` at the target's width, as the drawing processes do, counting the drawings made. */
  function drawer(svg: Uint8Array, refuseSecond = false) {
    const widths: number[] = [];
    const draw = async (target: RasterTarget) => {
      if (refuseSecond && widths.length === 1) throw new ProblemError("drawing_too_complex", "over the budget");
      const width = target.width ?? 100;
      widths.push(width);
      const declared = (await sharp(svg).metadata()).width;
      return new Uint8Array(await sharp(svg, { density: (72 * width) / declared }).png().toBuffer());
    };
    return { draw, widths };
  }

  it("draws once without a trim, or when the trim keeps the whole drawing", async () => {
    const plain = drawer(paddedMark);
    await drawnForTrim({ width: 400 }, plain.draw);
    expect(plain.widths).toEqual([400]);
    const whole = drawer(unpadded);
    await drawnForTrim({ width: 400, trim: 10 }, whole.draw);
    expect(whole.widths).toEqual([400]);
  });

  it("draws again, larger by as much as the part kept falls short of the box", async () => {
    const { draw, widths } = drawer(paddedMark);
    const png = await drawnForTrim({ width: 60, trim: 10 }, draw);
    expect(widths).toHaveLength(2);
    const { box } = await trimmedPicture(sharp(png), 10);
    // The mark drawn 60 wide, not far past it.
    expect(box.width).toBeGreaterThanOrEqual(60);
    expect(box.width).toBeLessThanOrEqual(72);
  });

  it("draws a mark far smaller than its page no larger than REDRAW_MAX_PIXELS", async () => {
    const speck = new TextEncoder().encode(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><rect width="1000" height="1000" fill="#fff"/><rect x="495" y="495" width="10" height="10" fill="#123"/></svg>`,
    );
    const { draw, widths } = drawer(speck);
    await drawnForTrim({ width: 400, trim: 10 }, draw);
    // Drawn 400 wide the mark is 4 px, which asks 200 times more; 4096 px is the most.
    expect(widths).toEqual([400, 4096]);
  });

  it("keeps the first drawing when the larger one is over the drawing budget", async () => {
    const refused = drawer(paddedMark, true);
    const png = await drawnForTrim({ width: 400, trim: 10 }, refused.draw);
    expect(refused.widths).toEqual([400]);
    expect((await sharp(png).metadata()).width).toBe(400);
  });
});
