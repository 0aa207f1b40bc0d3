import { describe, expect, it } from "vitest";
import { outputGeometry } from "./geometry.ts";

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
