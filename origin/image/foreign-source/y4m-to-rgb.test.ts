import { describe, expect, it } from "vitest";
import { y4mToRgb } from "./y4m-to-rgb.ts";

const BT601_FULL = { kr: 0.299, kb: 0.114, fullRange: true };
const BT709_LIMITED = { kr: 0.2126, kb: 0.0722, fullRange: false };

/** A 2x2 y4m frame: one chroma sample for all four pixels, each pixel its own luma. */
function frame(luma: [number, number, number, number], cb: number, cr: number, header = "YUV4MPEG2 W2 H2 F30:1 Ip A0:0 C420jpeg"): Uint8Array {
  return new Uint8Array([...Buffer.from(`${header}\nFRAME\n`, "latin1"), ...luma, cb, cr]);
}

const near = (actual: number[], expected: number[]) => actual.every((value, i) => Math.abs(value - expected[i]!) <= 1);

describe("y4mToRgb", () => {
  it("converts full-range BT.601 (libheif's default) and shares the chroma sample over its 2x2 block", () => {
    const { data, width, height, channels } = y4mToRgb(frame([76, 76, 0, 255], 85, 255), BT601_FULL);
    expect([width, height, channels]).toEqual([2, 2, 3]);
    expect(near([...data.subarray(0, 3)], [254, 0, 0]), [...data.subarray(0, 3)].join(",")).toBe(true);
    // The same chroma on black and white luma clamps into range rather than wrapping.
    expect([...data.subarray(6, 9)].every((value) => value >= 0 && value <= 255)).toBe(true);
    expect(data[9]).toBe(255);
  });

  it("converts limited-range BT.709 from its own scale", () => {
    const black = y4mToRgb(frame([16, 16, 16, 16], 128, 128), BT709_LIMITED);
    expect([...black.data.subarray(0, 3)]).toEqual([0, 0, 0]);
    const white = y4mToRgb(frame([235, 235, 235, 235], 128, 128), BT709_LIMITED);
    expect([...white.data.subarray(0, 3)]).toEqual([255, 255, 255]);
    const red = y4mToRgb(frame([63, 63, 63, 63], 102, 240), BT709_LIMITED);
    expect(near([...red.data.subarray(0, 3)], [255, 0, 0]), [...red.data.subarray(0, 3)].join(",")).toBe(true);
  });

  it("refuses a frame that is not 4:2:0 or is cut short with a 422", () => {
    expect(() => y4mToRgb(frame([0, 0, 0, 0], 128, 128, "YUV4MPEG2 W2 H2 F30:1 C444"), BT601_FULL)).toThrow(expect.objectContaining({ slug: "image_unreadable" }));
    expect(() => y4mToRgb(frame([0, 0, 0, 0], 128, 128).subarray(0, 40), BT601_FULL)).toThrow(expect.objectContaining({ slug: "image_unreadable" }));
  });
});
