import { describe, expect, it } from "vitest";
import { PDF_CUSTOM_PERCEPTUAL_FLOOR, PDF_PROFILE_PARAMETERS, pdfCompressOptionsSchema } from "../../contracts/pdf-options.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import { resolveImageTargets } from "./profiles.ts";

const targets = (input: PdfCompressOptionsInput) => resolveImageTargets(pdfCompressOptionsSchema.parse(input));

describe("resolveImageTargets", () => {
  it("makes auto the ebook profile unless an intent says otherwise", () => {
    expect(targets({})).toMatchObject({ profile: "ebook", targetDpi: PDF_PROFILE_PARAMETERS.ebook.targetDpi, perceptualFloor: PDF_PROFILE_PARAMETERS.ebook.perceptualFloor });
    expect(targets({ intent: "email" }).profile).toBe("email");
    expect(targets({ intent: "archive" }).profile).toBe("prepress");
    expect(targets({ profile: "print", intent: "web" }).profile).toBe("print");
  });

  it("gives each profile its perceptual floor, uncapped, and lets an explicit image_quality replace it on any profile", () => {
    for (const profile of ["screen", "email", "ebook", "print", "prepress"] as const) {
      expect(targets({ profile })).toMatchObject({ perceptualFloor: PDF_PROFILE_PARAMETERS[profile].perceptualFloor, quality: 100 });
      expect(targets({ profile, image_quality: 40 })).toMatchObject({ perceptualFloor: null, quality: 40 });
    }
    expect(targets({ profile: "custom" }).perceptualFloor).toBe(PDF_CUSTOM_PERCEPTUAL_FLOOR);
  });

  it("caps the profile DPI with max_dpi and uses it as the custom target", () => {
    expect(targets({ profile: "print", max_dpi: 200 }).targetDpi).toBe(200);
    expect(targets({ profile: "screen", max_dpi: 200 }).targetDpi).toBe(72);
    expect(targets({ profile: "custom", max_dpi: 110, image_quality: 55 })).toMatchObject({ targetDpi: 110, quality: 55 });
    expect(targets({ profile: "ebook" }).maxDpi).toBeNull();
  });

  it("gives custom without max_dpi no ceiling at all, 1-bit images included", () => {
    expect(targets({ profile: "custom", image_quality: 70 })).toMatchObject({ targetDpi: Number.POSITIVE_INFINITY, bilevelDpi: Number.POSITIVE_INFINITY, maxDpi: null, quality: 70 });
    expect(targets({ profile: "custom", max_dpi: 200 }).bilevelDpi).toBe(200);
  });

  it("raises an image_quality below min_quality to it under a size target, and only then", () => {
    expect(targets({ profile: "screen", image_quality: 50, max_size_mb: 0.02 }).quality).toBe(60);
    expect(targets({ profile: "screen", image_quality: 50, max_base64_bytes: 30_000, min_quality: 55 }).quality).toBe(55);
    expect(targets({ profile: "screen", image_quality: 50, max_size_mb: 0.02, min_quality: 40 }).quality).toBe(50);
    expect(targets({ profile: "screen", image_quality: 50 }).quality).toBe(50);
    expect(targets({ profile: "custom", image_quality: 20, max_size_mb: 1 }).quality).toBe(60);
  });

  it("gives size targets the profile's floor, never above the target itself", () => {
    expect(targets({ profile: "print" }).floorDpi).toBe(PDF_PROFILE_PARAMETERS.print.floorDpi);
    expect(targets({ profile: "print", max_dpi: 100 }).floorDpi).toBe(100);
    expect(targets({ profile: "custom", max_dpi: 300 }).floorDpi).toBe(72);
    expect(targets({ profile: "custom", max_dpi: 50 }).floorDpi).toBe(50);
  });
});
