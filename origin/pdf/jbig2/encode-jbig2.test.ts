import { beforeAll, describe, expect, it } from "vitest";
import { generatedFile } from "../../../test/fixtures/generated-files.ts";
import type { PackedBitmap } from "./bitmap.ts";
import { encodeJbig2 } from "./encode-jbig2.ts";
import type { Jbig2Streams } from "./encode-jbig2.ts";
import { filledPage, noisePage, scanPages, textPage } from "./test-support/bilevel-pages.ts";
import { clearPadding, decodeWithJbig2dec, decodeWithMupdf } from "./test-support/real-decoders.ts";

function expectBitExact(pages: readonly PackedBitmap[], streams: Jbig2Streams): void {
  expect(streams.pages).toHaveLength(pages.length);
  pages.forEach((page, index) => {
    const stream = streams.pages[index] as Uint8Array;
    const expected = clearPadding(page);
    expect(decodeWithJbig2dec(streams.globals, stream)).toEqual(expected);
    expect(decodeWithMupdf(streams.globals, stream, page.width, page.height)).toEqual(expected);
  });
}

const total = (streams: Jbig2Streams) => (streams.globals?.length ?? 0) + streams.pages.reduce((sum, page) => sum + page.length, 0);

describe("encodeJbig2", () => {
  it("shares one symbol dictionary across text pages and decodes every page bit-exact", async () => {
    const pages = [
      await textPage(419, 150, ["Lorem ipsum dolor sit amet,", "consectetur adipiscing elit", "sed do eiusmod tempor"]),
      await textPage(405, 123, ["incididunt ut labore et dolore", "magna aliqua. Ut enim ad minim"]),
      noisePage(77, 31, 0.02),
    ];
    const streams = encodeJbig2(pages);
    expect(streams.globals).not.toBeNull();
    expect(streams.symbols).toBeGreaterThan(10);
    expectBitExact(pages, streams);
    expect(total(streams)).toBeLessThan(total(encodeJbig2(pages, { symbols: false })) + 200);
  });

  it("falls back to generic regions alone when no component repeats", () => {
    const pages = [filledPage(50, 20, false), filledPage(9, 9, true), noisePage(1, 1, 1)];
    const streams = encodeJbig2(pages);
    expect(streams.globals).toBeNull();
    expectBitExact(pages, streams);
  });

  describe("a 300 DPI scan of typed pages", () => {
    let pages: PackedBitmap[];
    let streams: Jbig2Streams;
    beforeAll(async () => {
      pages = scanPages(await generatedFile("bilevel-scan.pdf"));
      streams = encodeJbig2(pages);
    });

    it("decodes bit-exact with jbig2dec and MuPDF", () => {
      expect(pages.length).toBe(3);
      expectBitExact(pages, streams);
    });

    it("is smaller with symbol coding than with generic regions alone", () => {
      expect(streams.symbols).toBeGreaterThan(100);
      expect(total(streams)).toBeLessThan(total(encodeJbig2(pages, { symbols: false })));
    });
  });
});
