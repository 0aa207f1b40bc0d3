import { describe, expect, it } from "vitest";
import { DEFAULT_CHOICES, imageRequestOptions } from "./image-choices.ts";

describe("imageRequestOptions", () => {
  it("asks for what a bare request gets when nothing is set", () => {
    expect(imageRequestOptions(DEFAULT_CHOICES)).toEqual({ width: null, fit: "inside", format: "source", quality: 76, max_bytes: null, output: "base64" });
  });

  it("sends an auto level as its name and numbers as numbers", () => {
    const options = imageRequestOptions({ ...DEFAULT_CHOICES, width: "640", quality: "auto:eco", maxBytes: "50000", format: "webp", delivery: "url" });
    expect(options).toEqual({ width: 640, fit: "inside", format: "webp", quality: "auto:eco", max_bytes: 50_000, output: "url" });
  });

  it("passes a typed number on as typed, for the service to judge", () => {
    expect(imageRequestOptions({ ...DEFAULT_CHOICES, fixedQuality: "250" }).quality).toBe(250);
  });
});
