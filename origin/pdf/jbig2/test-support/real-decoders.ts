// Decodes embedded-stream JBIG2 with the two real decoders the output must satisfy:
// Debian's jbig2dec command and MuPDF (through a PDF image with /JBIG2Decode).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import { packedStride } from "../bitmap.ts";
import type { PackedBitmap } from "../bitmap.ts";

/** Padding bits past the width are undefined in both formats; compare with them cleared. */
export function clearPadding(bitmap: PackedBitmap): PackedBitmap {
  const stride = packedStride(bitmap.width);
  const rows = bitmap.rows.slice(0, stride * bitmap.height);
  const keep = (0xff << (8 - (bitmap.width % 8 || 8))) & 0xff;
  for (let y = 0; y < bitmap.height; y++) rows[y * stride + stride - 1] = (rows[y * stride + stride - 1] as number) & keep;
  return { width: bitmap.width, height: bitmap.height, rows };
}

function readPbm(bytes: Uint8Array): PackedBitmap {
  const header = /^P4\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s/.exec(new TextDecoder("latin1").decode(bytes.subarray(0, 100)));
  if (header === null) throw new Error("jbig2dec did not write a binary PBM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  return clearPadding({ width, height, rows: bytes.subarray(header[0].length) });
}

export function decodeWithJbig2dec(globals: Uint8Array | null, page: Uint8Array): PackedBitmap {
  const dir = mkdtempSync(path.join(tmpdir(), "jbig2dec-"));
  try {
    const pagePath = path.join(dir, "page.jb2");
    const outPath = path.join(dir, "out.pbm");
    writeFileSync(pagePath, page);
    const inputs = [pagePath];
    if (globals !== null) {
      inputs.unshift(path.join(dir, "globals.jb2"));
      writeFileSync(inputs[0] as string, globals);
    }
    execFileSync("/usr/bin/jbig2dec", ["-e", "-q", "-t", "pbm", "-o", outPath, ...inputs], { stdio: ["ignore", "ignore", "pipe"] });
    return readPbm(new Uint8Array(readFileSync(outPath)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The image MuPDF decodes from a PDF image object holding the stream, as ink bits (1 = black). */
export function decodeWithMupdf(globals: Uint8Array | null, page: Uint8Array, width: number, height: number): PackedBitmap {
  const doc = new mupdf.PDFDocument();
  try {
    const dict: Record<string, unknown> = { Type: "XObject", Subtype: "Image", Width: width, Height: height, ColorSpace: "DeviceGray", BitsPerComponent: 1, Filter: "JBIG2Decode" };
    if (globals !== null) dict.DecodeParms = { JBIG2Globals: doc.addRawStream(globals, {}) };
    const ref = doc.addRawStream(page, dict);
    const image = doc.loadImage(ref);
    const pixmap = image.toPixmap();
    try {
      const samples = pixmap.getPixels();
      const stride = pixmap.getStride();
      const components = pixmap.getNumberOfComponents();
      const rows = new Uint8Array(packedStride(width) * height);
      for (let y = 0; y < pixmap.getHeight(); y++) {
        for (let x = 0; x < pixmap.getWidth(); x++) {
          if ((samples[y * stride + x * components] as number) < 128) rows[y * packedStride(width) + (x >> 3)] = (rows[y * packedStride(width) + (x >> 3)] as number) | (0x80 >> (x & 7));
        }
      }
      return { width: pixmap.getWidth(), height: pixmap.getHeight(), rows };
    } finally {
      pixmap.destroy();
      image.destroy();
    }
  } finally {
    doc.destroy();
  }
}
