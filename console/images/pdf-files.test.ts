import { describe, expect, it } from "vitest";
import { splitPdfs } from "./pdf-files.ts";

describe("a drop on the Images section", () => {
  it("hands PDFs on, by type or by name when the browser gives no type, and keeps the images", () => {
    const photo = new File(["x"], "photo.jpg", { type: "image/jpeg" });
    const typed = new File(["%PDF-"], "scan", { type: "application/pdf" });
    const untyped = new File(["%PDF-"], "Report.PDF");
    const mislabelled = new File(["x"], "pic.pdf", { type: "image/png" });
    const { images, pdfs } = splitPdfs([photo, typed, untyped, mislabelled]);
    expect(images).toEqual([photo, mislabelled]);
    expect(pdfs).toEqual([typed, untyped]);
  });
});
