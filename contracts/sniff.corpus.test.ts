// sniffContentType over real-world files: all of PngSuite (valid files of every colour type,
// interlacing and chunk ordering, and files whose signature is corrupt), camera JPEGs, AVIFs
// from libavif's samples, and signed, encrypted and PDF/A PDFs from pdf.js and pypdf.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { corpusPath } from "../test/support/corpus-dir.ts";
import { sniffContentType } from "./sniff.ts";

const read = (folder: string, names: string[]) => names.map((name) => [name, new Uint8Array(readFileSync(path.join(corpusPath(folder), name)))] as const);
const pngSuite = read("img/pngsuite", readdirSync(corpusPath("img/pngsuite")).filter((name) => name.endsWith(".png")));
const jpegs = read("img/exif-orientation", ["Landscape_1.jpg", "Landscape_2.jpg", "Landscape_3.jpg"]);
const avifs = read("img/avif", ["fox.profile0.8bpc.yuv420.avif", "kimono.avif"]);
const pdfs = read("pdf", ["pdfjs_signed_verified.pdf", "pypdf_encrypted_userpw.pdf", "pypdf_pdfa1b.pdf"]);

describe("sniffContentType on the corpus", () => {
  it("recognises every PngSuite file whose signature is intact, and none whose signature is corrupt", () => {
    expect(pngSuite.length).toBeGreaterThan(150);
    const corruptSignature = new Set(["xs1n0g01.png", "xs2n0g01.png", "xs4n0g01.png", "xs7n0g01.png", "xcrn0g04.png", "xlfn0g04.png"]);
    for (const [name, bytes] of pngSuite) {
      expect(sniffContentType(bytes)?.format ?? null, name).toBe(corruptSignature.has(name) ? null : "png");
    }
  });

  it("recognises corpus JPEG, AVIF and PDF files", () => {
    expect(jpegs).toHaveLength(3);
    for (const [name, bytes] of jpegs) expect(sniffContentType(bytes), name).toMatchObject({ format: "jpeg", mime: "image/jpeg" });
    expect(avifs).toHaveLength(2);
    for (const [name, bytes] of avifs) expect(sniffContentType(bytes), name).toMatchObject({ format: "avif", kind: "image" });
    expect(pdfs).toHaveLength(3);
    for (const [name, bytes] of pdfs) expect(sniffContentType(bytes), name).toMatchObject({ format: "pdf", kind: "pdf" });
  });
});
