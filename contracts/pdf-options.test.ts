import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { PDF_FIXED_PROFILES, PDF_PROFILE_DESCRIPTION, PDF_PROFILE_PARAMETERS, pdfAnalyzeOptionsSchema, pdfCompressOptionsSchema } from "./pdf-options.ts";

describe("pdfCompressOptionsSchema", () => {
  it("applies the documented defaults to an empty object", () => {
    expect(pdfCompressOptionsSchema.parse({})).toEqual({
      profile: "auto",
      intent: null,
      password: null,
      allow_signature_break: false,
      allow_conformance_break: false,
      max_dpi: null,
      image_quality: null,
      grayscale: false,
      strip: { metadata: true, thumbnails: true, javascript: true, embedded_files: true, annotations: false, structure_tree: false },
      fonts: { subset: true, dedupe: true },
      dedupe_images: true,
      max_size_mb: null,
      max_base64_bytes: null,
      min_quality: 60,
      verify_quality: false,
      ssim_threshold: 0.97,
      zopfli: false,
      jbig2: "auto",
      linearize: false,
      output: "url",
    });
  });

  it("fills the defaults of a partly given nested object", () => {
    const parsed = pdfCompressOptionsSchema.parse({ strip: { annotations: true }, fonts: { subset: false } });
    expect(parsed.strip).toEqual({ metadata: true, thumbnails: true, javascript: true, embedded_files: true, annotations: true, structure_tree: false });
    expect(parsed.fonts).toEqual({ subset: false, dedupe: true });
  });

  it("rejects unknown fields at the top level and inside strip", () => {
    for (const input of [{ profil: "ebook" }, { strip: { xmp: true } }]) {
      const result = pdfCompressOptionsSchema.safeParse(input);
      expect(result.success).toBe(false);
    }
  });

  it("rejects out-of-range quality and dpi and unknown profiles", () => {
    for (const input of [{ image_quality: 0 }, { image_quality: 101 }, { image_quality: 50.5 }, { max_dpi: 1 }, { max_dpi: 100_000 }, { profile: "tiny" }]) {
      expect(pdfCompressOptionsSchema.safeParse(input).success).toBe(false);
    }
  });

  it("rejects size targets, quality floors and SSIM thresholds out of range", () => {
    const invalid = [{ max_size_mb: 0 }, { max_size_mb: -1 }, { max_size_mb: 201 }, { max_base64_bytes: 0 }, { max_base64_bytes: 10.5 }, { min_quality: 0 }, { ssim_threshold: 0.2 }, { ssim_threshold: 1.1 }, { zopfli: "yes" }, { jbig2: "lossy" }, { linearize: "yes" }];
    for (const input of invalid) {
      expect(pdfCompressOptionsSchema.safeParse(input).success).toBe(false);
    }
  });

  it("documents min_quality as a floor and max_dpi null as no ceiling", () => {
    const app = new OpenAPIHono();
    app.openAPIRegistry.register("PdfCompressOptions", pdfCompressOptionsSchema);
    const document = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "contract", version: "1" } });
    const schema = document.components?.schemas?.PdfCompressOptions as { properties: Record<string, { description?: string; default?: unknown }> };
    const described = (field: string) => schema.properties[field]?.description ?? "";
    expect(schema.properties.min_quality?.default).toBe(60);
    expect(described("min_quality")).toContain("no image is pushed under it");
    expect(schema.properties.image_quality?.default).toBeNull();
    expect(described("image_quality")).toContain("Default null = the profile's perceptual floor");
    expect(described("max_dpi")).toContain("Default null = no ceiling");
    expect(PDF_PROFILE_DESCRIPTION).toContain("without `max_dpi` no image is resampled");
  });

  it("documents every profile's parameters in the profile description", () => {
    for (const name of PDF_FIXED_PROFILES) {
      expect(PDF_PROFILE_DESCRIPTION).toContain(`\`${name}\`: ${PDF_PROFILE_PARAMETERS[name].targetDpi} dpi`);
      expect(PDF_PROFILE_DESCRIPTION).toContain(`size-target floor ${PDF_PROFILE_PARAMETERS[name].floorDpi} dpi`);
      expect(PDF_PROFILE_DESCRIPTION).toContain(`\`${name}\`: ${PDF_PROFILE_PARAMETERS[name].targetDpi} dpi, perceptual floor ${PDF_PROFILE_PARAMETERS[name].perceptualFloor}`);
      expect(PDF_PROFILE_PARAMETERS[name].floorDpi).toBeLessThan(PDF_PROFILE_PARAMETERS[name].targetDpi);
    }
  });
});

describe("pdfAnalyzeOptionsSchema", () => {
  it("takes an optional password and nothing else", () => {
    expect(pdfAnalyzeOptionsSchema.parse({})).toEqual({ password: null });
    expect(pdfAnalyzeOptionsSchema.parse({ password: "pw" })).toEqual({ password: "pw" });
    expect(pdfAnalyzeOptionsSchema.safeParse({ profile: "ebook" }).success).toBe(false);
  });
});
