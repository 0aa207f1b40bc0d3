import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { applyResize, planResize, type ResizeRequest } from "./resize.ts";

const source = { width: 4000, height: 3000 };
const request = (overrides: Partial<ResizeRequest>): ResizeRequest => ({
  width: null,
  height: null,
  fit: "inside",
  enlarge: false,
  ...overrides,
});

describe("planResize", () => {
  it.each([
    ["no box", {}, "none", [4000, 3000]],
    ["inside, width only", { width: 1600 }, "scale", [1600, 1200]],
    ["inside, height only", { height: 600 }, "scale", [800, 600]],
    ["inside, both", { width: 1000, height: 1000 }, "scale", [1000, 750]],
    ["inside, box larger, no enlarge", { width: 8000, height: 8000 }, "none", [4000, 3000]],
    ["inside, box larger, enlarge", { width: 8000, enlarge: true }, "scale", [8000, 6000]],
    ["cover", { width: 1000, height: 1000, fit: "cover" }, "cover", [1000, 1000]],
    ["cover, one side larger, no enlarge", { width: 5000, height: 1000, fit: "cover" }, "cover", [4000, 1000]],
    ["cover, box larger, no enlarge", { width: 5000, height: 5000, fit: "cover" }, "none", [4000, 3000]],
    ["cover, box larger, enlarge", { width: 5000, height: 5000, fit: "cover", enlarge: true }, "cover", [5000, 5000]],
    ["contain", { width: 1000, height: 1000, fit: "contain" }, "contain", [1000, 1000]],
    ["contain, box larger, no enlarge", { width: 5000, height: 5000, fit: "contain" }, "contain", [5000, 5000]],
    ["fill", { width: 1000, height: 1000, fit: "fill" }, "scale", [1000, 1000]],
    ["fill, box larger, no enlarge", { width: 5000, height: 2000, fit: "fill" }, "scale", [4000, 2000]],
    ["fill, width only keeps the aspect ratio", { width: 2000, fit: "fill" }, "scale", [2000, 1500]],
  ] as const)("%s", (_, overrides, kind, [width, height]) => {
    const plan = planResize(source, request(overrides));
    expect(plan.kind).toBe(kind);
    expect(plan.size).toEqual({ width, height });
  });

  it("contain never enlarges the picture itself, only pads", () => {
    const plan = planResize(source, request({ width: 5000, height: 5000, fit: "contain" }));
    expect(plan).toMatchObject({ kind: "contain", inner: { width: 4000, height: 3000 } });
    const enlarged = planResize(source, request({ width: 5000, height: 5000, fit: "contain", enlarge: true }));
    expect(enlarged).toMatchObject({ inner: { width: 5000, height: 3750 } });
  });

  it("never produces a zero dimension", () => {
    expect(planResize({ width: 10_000, height: 10 }, request({ width: 100 })).size).toEqual({ width: 100, height: 1 });
  });
});

describe("applyResize", () => {
  // A red picture with a blue left half: its pixels show where crops and pads went.
  const picture = () =>
    sharp({ create: { width: 400, height: 300, channels: 3, background: "red" } }).composite([
      { input: { create: { width: 200, height: 300, channels: 3, background: "blue" } }, left: 0, top: 0 },
    ]);

  async function render(overrides: Partial<ResizeRequest>, padBackground: string | null = null) {
    const input = await sharp(await picture().png().toBuffer()).removeAlpha().png().toBuffer();
    const plan = planResize({ width: 400, height: 300 }, request(overrides));
    const { data, info } = await applyResize(sharp(input), plan, padBackground).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x + 1) * info.channels)];
    return { info, at };
  }

  it.each([
    [{ width: 100 }, [100, 75]],
    [{ width: 100, height: 100, fit: "cover" }, [100, 100]],
    [{ width: 100, height: 100, fit: "contain" }, [100, 100]],
    [{ width: 50, height: 120, fit: "fill" }, [50, 120]],
    [{ width: 800, height: 800 }, [400, 300]],
  ] as const)("%o gives exactly %o", async (overrides, [width, height]) => {
    const { info } = await render(overrides);
    expect([info.width, info.height]).toEqual([width, height]);
  });

  it("contain pads top and bottom with the background colour", async () => {
    const { info, at } = await render({ width: 100, height: 100, fit: "contain" }, "#00ff00");
    expect(info.channels).toBe(3);
    expect(at(50, 2)).toEqual([0, 255, 0]);
    expect(at(10, 50)).toEqual([0, 0, 255]);
    expect(at(90, 50)).toEqual([255, 0, 0]);
    expect(at(50, 97)).toEqual([0, 255, 0]);
  });

  it("contain without a background pads with transparent pixels", async () => {
    const { info, at } = await render({ width: 100, height: 100, fit: "contain" });
    expect(info.channels).toBe(4);
    expect(at(50, 2)[3]).toBe(0);
    expect(at(10, 50)).toEqual([0, 0, 255, 255]);
  });

  it("cover crops the centre", async () => {
    const { at } = await render({ width: 300, height: 300, fit: "cover" });
    expect(at(5, 150)).toEqual([0, 0, 255]);
    expect(at(295, 150)).toEqual([255, 0, 0]);
  });
});
