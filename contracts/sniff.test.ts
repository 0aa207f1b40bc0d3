// Files written by sharp and mupdf (test/fixtures/), plus headers built here from each format's
// specification for the formats those do not write. The real-world files (all of PngSuite among
// them) are in sniff.corpus.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import { ProblemError } from "./problems/catalogue.ts";
import { generatedFile, type GeneratedFileName } from "../test/fixtures/generated-files.ts";
import { expectKind, formatOfMime, sniffContentType } from "./sniff.ts";

type Named = (readonly [string, Uint8Array])[];
const named = (names: GeneratedFileName[]): Promise<Named> => Promise.all(names.map(async (name) => [name, new Uint8Array(await generatedFile(name))] as const));

let pngs: Named;
let jpegs: Named;
let avifs: Named;
let pdfs: Named;
beforeAll(async () => {
  [pngs, jpegs, avifs, pdfs] = await Promise.all([
    named(["rgba.png", "rgb.png", "palette-transparent.png", "bilevel.png", "grey16.png"]),
    named(["landscape-0.jpg", "landscape-1.jpg", "portrait-6.jpg"]),
    named(["photo.avif", "portrait.avif"]),
    named(["signed.pdf", "encrypted.pdf", "pdfa.pdf"]),
  ]);
  // sharp and mupdf make these in this process; on a loaded 2-core machine that passes 10 s.
}, 60_000);

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const concat = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const u32be = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24];

// ISO-BMFF ftyp box: size, "ftyp", major brand, minor version, compatible brands.
const ftyp = (major: string, ...compatible: string[]) =>
  concat(u32be(16 + 4 * compatible.length), ascii("ftyp"), ascii(major), [0, 0, 0, 0], ...compatible.map(ascii));

// GIF89a, 1x1, global colour table of 2, one image descriptor, LZW data, trailer.
const gif = concat(ascii("GIF89a"), [1, 0, 1, 0, 0x80, 0, 0], [0, 0, 0, 255, 255, 255], [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0], [2, 2, 0x44, 0x01, 0], [0x3b]);
// RIFF container with a VP8L chunk header.
const webp = concat(ascii("RIFF"), u32le(26), ascii("WEBPVP8L"), u32le(14), new Uint8Array(14));
const tiffLittle = concat(ascii("II"), [42, 0], u32le(8));
const tiffBig = concat(ascii("MM"), [0, 42], u32be(8));
// BITMAPFILEHEADER (14 bytes) then a BITMAPINFOHEADER whose size field is 40.
const bmp = concat(ascii("BM"), u32le(70), [0, 0, 0, 0], u32le(54), u32le(40), new Uint8Array(36));

function xlsxFile(): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["a", 1], ["b", 2]]), "Sheet1");
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
}

function zipFile(): Uint8Array {
  // One stored entry "hello.txt": local header, data, central directory entry, end record.
  const name = ascii("hello.txt");
  const data = ascii("hi");
  const local = concat(u32le(0x04034b50), [20, 0, 0, 0, 0, 0, 0, 0, 0, 0], u32le(0), u32le(2), u32le(2), [name.length, 0, 0, 0], name, data);
  const central = concat(u32le(0x02014b50), [20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0], u32le(0), u32le(2), u32le(2), [name.length, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], u32le(0), name);
  const end = concat(u32le(0x06054b50), [0, 0, 0, 0, 1, 0, 1, 0], u32le(central.length), u32le(local.length), [0, 0]);
  return concat(local, central, end);
}

describe("sniffContentType", () => {
  it("recognises a PNG of every colour type, and none whose signature is corrupt", () => {
    for (const [name, bytes] of pngs) expect(sniffContentType(bytes)?.format, name).toBe("png");
    const [, png] = pngs[0]!;
    // PngSuite's kinds of damage to the 8-byte signature: a changed first byte, a letter's case,
    // CR LF turned into LF (a text-mode copy), and LF turned into CR LF.
    const corrupt = [concat([0x88], png.subarray(1)), concat(png.subarray(0, 1), [0x50 ^ 0x20], png.subarray(2)), concat(png.subarray(0, 4), [0x0a], png.subarray(6)), concat(png.subarray(0, 7), [0x0d, 0x0a], png.subarray(8))];
    for (const bytes of corrupt) expect(sniffContentType(bytes)).toBeNull();
  });

  it("recognises JPEG, AVIF and PDF files (signed, encrypted and PDF/A among them)", () => {
    expect(jpegs).toHaveLength(3);
    for (const [name, bytes] of jpegs) expect(sniffContentType(bytes), name).toMatchObject({ format: "jpeg", mime: "image/jpeg" });
    expect(avifs).toHaveLength(2);
    for (const [name, bytes] of avifs) expect(sniffContentType(bytes), name).toMatchObject({ format: "avif", kind: "image" });
    expect(pdfs).toHaveLength(3);
    for (const [name, bytes] of pdfs) expect(sniffContentType(bytes), name).toMatchObject({ format: "pdf", kind: "pdf" });
  });

  it("recognises the formats sharp and mupdf do not write here from their specified headers", () => {
    expect(sniffContentType(gif)?.format).toBe("gif");
    expect(sniffContentType(concat(ascii("GIF87a"), gif.subarray(6)))?.format).toBe("gif");
    expect(sniffContentType(webp)?.format).toBe("webp");
    expect(sniffContentType(tiffLittle)?.format).toBe("tiff");
    expect(sniffContentType(tiffBig)?.format).toBe("tiff");
    expect(sniffContentType(bmp)?.format).toBe("bmp");
  });

  it("tells AVIF from HEIC by the ftyp brands", () => {
    expect(sniffContentType(ftyp("avif", "mif1", "miaf"))?.format).toBe("avif");
    expect(sniffContentType(ftyp("mif1", "miaf", "avif"))?.format).toBe("avif");
    expect(sniffContentType(ftyp("avis", "msf1"))?.format).toBe("avif");
    expect(sniffContentType(ftyp("heic", "mif1"))?.format).toBe("heic");
    expect(sniffContentType(ftyp("mif1", "heic"))?.format).toBe("heic");
    expect(sniffContentType(ftyp("isom", "iso2", "mp41"))).toBeNull();
  });

  it("finds a PDF header behind leading junk, within the first 1024 bytes only", () => {
    const pdf = pdfs[0]![1];
    expect(sniffContentType(concat(new Uint8Array(1000).fill(0x20), pdf))?.format).toBe("pdf");
    expect(sniffContentType(concat(new Uint8Array(1020).fill(0x20), pdf))).toBeNull();
  });

  it("tells an xlsx from a plain ZIP by its central directory", () => {
    expect(sniffContentType(xlsxFile())).toMatchObject({ format: "xlsx", kind: "spreadsheet" });
    expect(sniffContentType(zipFile())).toMatchObject({ format: "zip", kind: "archive" });
  });

  it("recognises an HTML page, e.g. an error page saved under an image name", () => {
    expect(sniffContentType(concat([0xef, 0xbb, 0xbf], ascii(" \n<!DOCTYPE html><html><body>404</body></html>")))?.format).toBe("html");
    expect(sniffContentType(ascii("<HTML><HEAD>"))?.format).toBe("html");
  });

  it("returns null for unknown, empty and truncated input", () => {
    expect(sniffContentType(new Uint8Array(0))).toBeNull();
    expect(sniffContentType(ascii("hello world"))).toBeNull();
    expect(sniffContentType(new Uint8Array([0xff, 0xd8]))).toBeNull();
    expect(sniffContentType(ascii("RIFF\0\0\0\0WAVE"))).toBeNull();
    expect(sniffContentType(ascii("BMxxxxxxxxxxxxxxxxxxxx"))).toBeNull();
    expect(sniffContentType(pngs[0]![1].subarray(0, 7))).toBeNull();
  });

  it("survives an ftyp box that claims to be larger than the file", () => {
    const hostile = concat(u32be(0xffffffff), ascii("ftypisom"), new Uint8Array(4096));
    expect(sniffContentType(hostile)).toBeNull();
  });
});

describe("expectKind", () => {
  function refusal(bytes: Uint8Array, kind: "image" | "pdf"): ProblemError {
    try {
      expectKind(bytes, kind);
    } catch (error) {
      if (error instanceof ProblemError) return error;
      throw error;
    }
    throw new Error("accepted");
  }

  it("returns the sniffed type when the endpoint takes it", () => {
    expect(expectKind(jpegs[0]![1], "image").format).toBe("jpeg");
    expect(expectKind(gif, "image").format).toBe("gif");
    expect(expectKind(pdfs[0]![1], "pdf").format).toBe("pdf");
  });

  it("names what was found and what the endpoint takes", () => {
    const png = refusal(pngs.find(([name]) => name === "rgba.png")![1], "pdf");
    expect(png.slug).toBe("unsupported_media_type");
    expect(png.status).toBe(415);
    expect(png.message).toBe("this is a PNG image; /v1/pdf endpoints take PDF files");
    expect(png.extensions).toEqual({ detected_type: "image/png", expected_kind: "pdf" });

    // A PDF reaches the image endpoints, whose origin draws the page `page` names (or refuses without one).
    expect(expectKind(pdfs[0]![1], "image").format).toBe("pdf");
    expect(refusal(xlsxFile(), "image").message).toMatch(/^this is an Excel spreadsheet \(xlsx\); \/v1\/image endpoints take JPEG, PNG.*and a PDF's page with `page`$/);
    expect(refusal(xlsxFile(), "pdf").message).toMatch(/^this is an Excel spreadsheet \(xlsx\);/);
    expect(refusal(ascii("<!doctype html>"), "image").message).toMatch(/^this is an HTML page;/);
  });

  it("refuses images the engines cannot decode, and takes HEIC, JPEG XL and SVG", () => {
    expect(refusal(bmp, "image").message).toMatch(/^this is a BMP image; \/v1\/image endpoints take .*HEIC, JPEG XL or SVG/);
    expect(expectKind(ftyp("heic", "mif1"), "image").format).toBe("heic");
    expect(expectKind(new Uint8Array([0xff, 0x0a, 0xfa, 0x1f]), "image").format).toBe("jxl");
    expect(expectKind(ascii(`<svg xmlns="http://www.w3.org/2000/svg"/>`), "image").format).toBe("svg");
  });

  it("finds an SVG root behind a declaration, comments and a doctype, and nothing else in XML", () => {
    const svg = `\ufeff<?xml version="1.0"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>`;
    expect(sniffContentType(new TextEncoder().encode(svg))?.mime).toBe("image/svg+xml");
    expect(sniffContentType(ascii(`<?xml version="1.0"?><rss version="2.0"><svg/></rss>`))).toBeNull();
    expect(sniffContentType(ascii(`<!doctype html><svg></svg>`))?.format).toBe("html");
  });

  it("knows JPEG XL by its codestream and its container signatures", () => {
    expect(sniffContentType(new Uint8Array([0xff, 0x0a, 0x00]))?.mime).toBe("image/jxl");
    expect(sniffContentType(new Uint8Array([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a, 0, 0, 0, 0]))?.format).toBe("jxl");
  });

  it("describes unknown and empty input", () => {
    const unknown = refusal(ascii("hello world"), "image");
    expect(unknown.message).toMatch(/not a recognised file type \(it starts with 68 65 6c 6c 6f 20 77 6f\)/);
    expect(unknown.extensions.detected_type).toBeNull();
    expect(refusal(new Uint8Array(0), "pdf").message).toMatch(/^the source is empty;/);
  });
});

describe("formatOfMime", () => {
  it("reads a stored file's type back as the format it was sniffed as, and nothing else", async () => {
    const pdf = new Uint8Array(await generatedFile("vector-only.pdf"));
    expect(formatOfMime(sniffContentType(pdf)!.mime)).toBe("pdf");
    expect(formatOfMime("image/png")).toBe("png");
    expect(formatOfMime("application/octet-stream")).toBeNull();
  });
});
