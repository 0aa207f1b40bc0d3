import { describe, expect, it } from "vitest";
import { unpackBitmap } from "./bitmap.ts";
import type { PackedBitmap } from "./bitmap.ts";
import { encodeGenericRegion } from "./generic-region.ts";
import { genericRegionData, pageInformationData, SEGMENT_TYPE, serializeSegments } from "./segments.ts";
import { filledPage, noisePage, textPage } from "./test-support/bilevel-pages.ts";
import { clearPadding, decodeWithJbig2dec, decodeWithMupdf } from "./test-support/real-decoders.ts";

function genericPageStream(page: PackedBitmap, typicalPrediction: boolean): Uint8Array {
  const coded = encodeGenericRegion(unpackBitmap(page), typicalPrediction);
  return serializeSegments([
    { number: 0, type: SEGMENT_TYPE.pageInformation, page: 1, referredTo: [], data: pageInformationData(page.width, page.height) },
    { number: 1, type: SEGMENT_TYPE.immediateLosslessGenericRegion, page: 1, referredTo: [], data: genericRegionData(page.width, page.height, typicalPrediction, coded) },
  ]);
}

/** Noise bands separated by repeated rows, so typical prediction has rows to skip and rows to code. */
function bandedNoise(width: number, height: number): PackedBitmap {
  const page = noisePage(width, height, 0.3, 11);
  const stride = (width + 7) >> 3;
  for (let y = 0; y < height; y++) if (y % 9 >= 5) page.rows.copyWithin(y * stride, (y - 1) * stride, y * stride);
  return page;
}

const pages: [string, () => Promise<PackedBitmap> | PackedBitmap][] = [
  ["1x1 black", () => filledPage(1, 1, true)],
  ["all white 64x40", () => filledPage(64, 40, false)],
  ["all black 61x33", () => filledPage(61, 33, true)],
  ["noise 203x97 (width not a multiple of 8)", () => noisePage(203, 97, 0.4)],
  ["banded noise 150x90", () => bandedNoise(150, 90)],
  ["tall 3x700", () => noisePage(3, 700, 0.2)],
  ["wide 900x2", () => noisePage(900, 2, 0.5)],
  ["rendered text 333x120", () => textPage(333, 120, ["Hamburgefonstiv 0123", "the quick brown fox"])],
];

describe("encodeGenericRegion", () => {
  for (const [name, make] of pages) {
    it.each([true, false])(`${name} decodes bit-exact with jbig2dec and MuPDF (typical prediction %s)`, async (typicalPrediction) => {
      const page = await make();
      const stream = genericPageStream(page, typicalPrediction);
      const expected = clearPadding(page);
      expect(decodeWithJbig2dec(null, stream)).toEqual(expected);
      expect(decodeWithMupdf(null, stream, page.width, page.height)).toEqual(expected);
    });
  }

  it("typical prediction shrinks an image of repeated rows", () => {
    const page = bandedNoise(400, 300);
    const bitmap = unpackBitmap(page);
    expect(encodeGenericRegion(bitmap, true).length).toBeLessThan(encodeGenericRegion(bitmap, false).length * 0.8);
  });
});
