import { describe, expect, it } from "vitest";
import { DPI_BANDS, dpiBand } from "./dpi-band.ts";

describe("dpiBand", () => {
  it("puts each DPI in the band whose floor it reaches, the edges included", () => {
    expect([1200, 300, 299.9, 150, 149.5, 72, 71.9, 10].map((dpi) => dpiBand(dpi).id)).toEqual(["print", "print", "zoom", "zoom", "screen", "screen", "soft", "soft"]);
  });

  it("gives every band its own colour, dark enough for white text (4.5:1)", () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    expect(new Set(DPI_BANDS.map((band) => band.colour)).size).toBe(DPI_BANDS.length);
    for (const band of DPI_BANDS) expect(1.05 / (luminance(band.colour) + 0.05), band.id).toBeGreaterThanOrEqual(4.5);
  });
});
