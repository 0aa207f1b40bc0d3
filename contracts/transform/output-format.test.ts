import { describe, expect, it } from "vitest";
import { outputChoice, resolveOutputFormat } from "./output-format.ts";

describe("output format", () => {
  it("folds the token and the negotiated class into one choice", () => {
    expect(outputChoice(undefined, undefined)).toBe("source");
    expect(outputChoice("webp", undefined)).toBe("webp");
    expect(outputChoice("auto", "avif")).toBe("avif");
    expect(outputChoice("auto", "legacy")).toBe("legacy");
  });

  it("resolves legacy and source by the source's format and alpha", () => {
    expect(resolveOutputFormat("legacy", "webp", true)).toBe("png");
    expect(resolveOutputFormat("legacy", "png", false)).toBe("jpeg");
    expect(resolveOutputFormat("source", "webp", true)).toBe("webp");
    expect(resolveOutputFormat("source", "gif", true)).toBe("png");
    expect(resolveOutputFormat("source", "tiff", false)).toBe("jpeg");
    expect(resolveOutputFormat("avif", "png", true)).toBe("avif");
  });
});
