import { describe, expect, it } from "vitest";
import {
  formatMicros,
  imagePrice,
  pdfCompressCeiling,
  pdfCompressPrice,
  PDF_SMALL_TIER_BYTES,
  storageDayPrice,
  transformPrice,
  xlsxPrice,
} from "./pricing.ts";

describe("pricing", () => {
  it("charges $0.0008 for an image that got smaller and nothing otherwise", () => {
    expect(imagePrice({ originalBytes: 1000, outputBytes: 999 })).toBe(800);
    expect(imagePrice({ originalBytes: 1000, outputBytes: 1000 })).toBe(0);
    expect(imagePrice({ originalBytes: 1000, outputBytes: 5000 })).toBe(0);
    expect(transformPrice()).toBe(800);
  });

  it("prices PDF compress by input tier, plus verify_quality, and nothing when not smaller", () => {
    expect(pdfCompressPrice({ inputBytes: PDF_SMALL_TIER_BYTES, madeSmaller: true, verifyQuality: false })).toBe(20_000);
    expect(pdfCompressPrice({ inputBytes: PDF_SMALL_TIER_BYTES + 1, madeSmaller: true, verifyQuality: false })).toBe(40_000);
    expect(pdfCompressPrice({ inputBytes: 10, madeSmaller: true, verifyQuality: true })).toBe(25_000);
    expect(pdfCompressPrice({ inputBytes: 10, madeSmaller: false, verifyQuality: true })).toBe(0);
    expect(pdfCompressCeiling(PDF_SMALL_TIER_BYTES + 1, true)).toBe(45_000);
  });

  it("pro-rates xlsx cells and rounds up to the micro", () => {
    expect(xlsxPrice(0)).toBe(5_000);
    expect(xlsxPrice(1)).toBe(5_001);
    expect(xlsxPrice(1000)).toBe(5_020);
    expect(xlsxPrice(1001)).toBe(5_021);
    expect(xlsxPrice(1_000_000)).toBe(25_000);
  });

  it("prices a day of durable storage at $0.015 per GB-month, rounded up to the micro", () => {
    expect(storageDayPrice(0)).toBe(0);
    expect(storageDayPrice(1)).toBe(1);
    // 1 GB for a day is exactly 15,000 / 30 = 500 micros; one byte more rounds up to 501.
    expect(storageDayPrice(1_000_000_000)).toBe(500);
    expect(storageDayPrice(1_000_000_001)).toBe(501);
    expect(storageDayPrice(2_000_000)).toBe(1);
    expect(storageDayPrice(2_000_001)).toBe(2);
    // 100 GB, the pro quota: $0.05 a day, and a month of days is the GB-month price.
    expect(storageDayPrice(100_000_000_000)).toBe(50_000);
    expect(storageDayPrice(1_000_000_000) * 30).toBe(15_000);
    // Past 2^53 / 15,000 bytes a float product would lose the last micro; BigInt does not.
    expect(storageDayPrice(Number.MAX_SAFE_INTEGER)).toBe(4_503_599_628);
    expect(() => storageDayPrice(-1)).toThrow(RangeError);
    expect(() => storageDayPrice(1.5)).toThrow(RangeError);
  });

  it("formats micros as dollars without floating point", () => {
    expect(formatMicros(800)).toBe("$0.0008");
    expect(formatMicros(25_000_000)).toBe("$25.00");
    expect(formatMicros(20_500)).toBe("$0.0205");
    expect(formatMicros(-1)).toBe("-$0.000001");
  });
});
