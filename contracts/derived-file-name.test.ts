import { describe, expect, it } from "vitest";
import { compressedPdfName, optimizedImageName } from "./derived-file-name.ts";

describe("derived file names", () => {
  it("names a compressed PDF after its source, one way", () => {
    expect(["libtasn1.pdf", "Q3 report.PDF", "notes", "a.b.pdf", ".pdf", null].map(compressedPdfName)).toEqual([
      "libtasn1.compressed.pdf",
      "Q3 report.compressed.pdf",
      "notes.compressed.pdf",
      "a.b.compressed.pdf",
      "document.compressed.pdf",
      "document.compressed.pdf",
    ]);
  });

  it("names an optimized image after its source, in its output format's extension", () => {
    expect(optimizedImageName("photo.jpeg", "jpeg")).toBe("photo.jpg");
    expect(optimizedImageName("shots/hero.png", "webp")).toBe("hero.webp");
    expect(optimizedImageName(null, "avif")).toBe("image.avif");
  });
});
