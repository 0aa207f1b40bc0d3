import { describe, expect, it } from "vitest";
import type { ImageHeader } from "../edge-image/image-header.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { uprightSize } from "../../contracts/image-orientation.ts";
import { mezzanineServes, mezzanineWouldServe } from "./mezzanine-plan.ts";
import { MEZZANINE_MAX_PIXELS, mezzanineSize } from "../../contracts/origin/image-mezzanine.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";

const op = (segment: string) => resolveTransform(parseTransform(segment));
const photo: ImageHeader = { format: "jpeg", width: 4000, height: 3000, hasAlpha: false, orientation: null, cmyk: false, animated: false };

describe("mezzanine plan", () => {
  it("sizes the mezzanine to the edge's source budget, keeping the shape, never enlarging", () => {
    const size = mezzanineSize({ width: 4000, height: 3000 });
    expect(size.width * size.height).toBeLessThanOrEqual(MEZZANINE_MAX_PIXELS);
    expect(size.width * size.height).toBeGreaterThan(MEZZANINE_MAX_PIXELS * 0.99);
    expect(Math.abs(size.width / size.height - 4 / 3)).toBeLessThan(0.005);
    expect(mezzanineSize({ width: 800, height: 600 })).toEqual({ width: 800, height: 600 });
  });

  it("serves edge operations whose output fits inside the mezzanine", () => {
    for (const segment of ["w_400", "w_800", "w_300,h_300,fit_cover,g_north", "w_600,h_200,fit_fill"]) expect(mezzanineWouldServe(photo, op(segment)), segment).toBe(true);
    // Larger than the mezzanine, past the edge's output budget, or operations the edge lacks.
    for (const segment of ["w_1200", "w_1000,h_700,fit_cover", "w_400,bl_2", "w_400,sh_1", "w_400,r_90", "w_400,h_400,fit_cover,g_auto", "w_400,h_400,fit_contain"]) {
      expect(mezzanineWouldServe(photo, op(segment)), segment).toBe(false);
    }
  });

  it("plans on the upright size of an EXIF-rotated original, and on a CMYK one", () => {
    const rotated = { ...photo, orientation: 6 };
    expect(uprightSize(rotated)).toEqual({ width: 3000, height: 4000 });
    // Upright, h_800 is 600x800, within the output budget; on the stored axes it would be 1067x800.
    expect(mezzanineWouldServe(rotated, op("h_800"))).toBe(true);
    expect(mezzanineWouldServe(photo, op("h_800"))).toBe(false);
    expect(mezzanineWouldServe({ ...photo, width: 900, height: 600, cmyk: true }, op("w_300"))).toBe(true);
  });

  it("judges a stored mezzanine from its meta against the original's geometry", () => {
    const meta = { format: "jpeg" as const, ...mezzanineSize({ width: 4000, height: 3000 }), original: { width: 4000, height: 3000, format: "webp", hasAlpha: false } };
    expect(mezzanineServes(meta, op("w_400"))).toBe(true);
    expect(mezzanineServes(meta, op("w_1200"))).toBe(false);
  });
});
