import { describe, expect, it } from "vitest";
import { geometryOnDownscale, outputGeometry } from "./geometry.ts";

const box = (width: number | undefined, height: number | undefined, fit = "inside" as const, gravity = "center" as const) => ({ width, height, fit, gravity });

describe("outputGeometry", () => {
  it("scales inside the box and never enlarges", () => {
    expect(outputGeometry(1800, 1200, box(400, undefined))).toEqual({ crop: null, width: 400, height: 267 });
    expect(outputGeometry(1800, 1200, box(undefined, 300))).toEqual({ crop: null, width: 450, height: 300 });
    expect(outputGeometry(1800, 1200, box(400, 400))).toEqual({ crop: null, width: 400, height: 267 });
    expect(outputGeometry(32, 32, box(400, undefined))).toEqual({ crop: null, width: 32, height: 32 });
  });

  it("stretches for fill", () => {
    expect(outputGeometry(1800, 1200, { ...box(100, 100), fit: "fill" })).toEqual({ crop: null, width: 100, height: 100 });
  });

  it("crops at the gravity for cover", () => {
    const centre = outputGeometry(1800, 1200, { ...box(300, 300), fit: "cover" });
    expect(centre).toEqual({ crop: { left: 300, top: 0, width: 1200, height: 1200 }, width: 300, height: 300 });
    expect(outputGeometry(1800, 1200, { ...box(300, 300), fit: "cover", gravity: "east" }).crop?.left).toBe(600);
    expect(outputGeometry(1800, 1200, { ...box(300, 300), fit: "cover", gravity: "northwest" }).crop).toMatchObject({ left: 0, top: 0 });
    expect(outputGeometry(1200, 1800, { ...box(300, 100), fit: "cover", gravity: "south" }).crop).toEqual({ left: 0, top: 1400, width: 1200, height: 400 });
  });
});

describe("geometryOnDownscale", () => {
  it("keeps the original's output size and rescales the crop onto the downscale", () => {
    const frame = { width: 4000, height: 3000 };
    const mezzanine = { width: 1154, height: 865 };
    expect(geometryOnDownscale(mezzanine, frame, box(400, undefined))).toEqual(outputGeometry(4000, 3000, box(400, undefined)));
    const cover = geometryOnDownscale(mezzanine, frame, { ...box(300, 300), fit: "cover", gravity: "east" });
    expect(cover).toMatchObject({ width: 300, height: 300, crop: { top: 0, height: 865 } });
    expect(cover.crop!.left + cover.crop!.width).toBe(1154);
    expect(Math.abs(cover.crop!.width - 865)).toBeLessThanOrEqual(1);
  });

  it("is outputGeometry when the source is the frame", () => {
    const op = { ...box(300, 100), fit: "cover" as const, gravity: "south" as const };
    expect(geometryOnDownscale({ width: 1200, height: 1800 }, { width: 1200, height: 1800 }, op)).toEqual(outputGeometry(1200, 1800, op));
  });
});
