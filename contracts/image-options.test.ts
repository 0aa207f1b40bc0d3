import { describe, expect, it } from "vitest";
import { IMAGE_DIMENSION_MAX, imageOptionsSchema } from "./image-options.ts";

describe("imageOptionsSchema", () => {
  it("applies the documented defaults to an empty object", () => {
    expect(imageOptionsSchema.parse({})).toEqual({
      width: null,
      height: null,
      fit: "inside",
      enlarge: false,
      background: null,
      format: "source",
      quality: 76,
      mozjpeg: true,
      progressive: false,
      chroma_subsampling: null,
      strip_metadata: true,
      auto_orient: true,
      max_bytes: null,
      animated: true,
      page: null,
      placeholder: false,
      keep_source: false,
      output: "url",
    });
  });

  it("rejects unknown fields and names them", () => {
    const result = imageOptionsSchema.safeParse({ widht: 100 });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain("widht");
  });

  it.each([
    ["width", 0],
    ["width", IMAGE_DIMENSION_MAX + 1],
    ["height", 10.5],
    ["quality", 0],
    ["quality", 101],
    ["quality", "auto:great"],
    ["quality", "high"],
    ["max_bytes", 0],
    ["max_bytes", 1e12],
    ["format", "gif"],
    ["fit", "stretch"],
    ["chroma_subsampling", "4:2:2"],
    ["background", "white"],
    ["background", "#12345"],
    ["output", "file"],
  ])("rejects %s = %s", (field, value) => {
    const result = imageOptionsSchema.safeParse({ [field]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  it("accepts quality auto and each auto:<level>, keeping 76 as the default", () => {
    for (const quality of ["auto", "auto:low", "auto:eco", "auto:good", "auto:best", 1, 100]) expect(imageOptionsSchema.parse({ quality }).quality).toBe(quality);
    expect(imageOptionsSchema.parse({}).quality).toBe(76);
  });

  it("accepts the hex colour forms and explicit values", () => {
    for (const background of ["#fff", "#ffff", "#a1b2c3", "#a1b2c3d4"]) {
      expect(imageOptionsSchema.parse({ background }).background).toBe(background);
    }
    for (const format of ["jpeg", "webp", "avif", "png", "auto", "source"]) expect(imageOptionsSchema.parse({ format }).format).toBe(format);
    // jpg is jpeg's alias, as in f_jpg (output-format-aliases.ts).
    expect(imageOptionsSchema.parse({ format: "jpg" }).format).toBe("jpeg");
    const parsed = imageOptionsSchema.parse({ width: 800, height: null, format: "webp", max_bytes: 50_000 });
    expect(parsed).toMatchObject({ width: 800, height: null, format: "webp", max_bytes: 50_000 });
  });
});
