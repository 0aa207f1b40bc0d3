import { describe, expect, it } from "vitest";
import type { XlsxColumn } from "../../contracts/xlsx-request.ts";
import { estimateColumnWidth } from "./autofit.ts";

function column(type: XlsxColumn["type"], header?: string): XlsxColumn {
  return { key: "k", type, ...(header !== undefined && { header }) };
}

describe("estimateColumnWidth", () => {
  it("fits the longest text line plus padding, within bounds", () => {
    expect(estimateColumnWidth(column("string"), ["ab", "a somewhat longer value", null], undefined)).toBe("a somewhat longer value".length + 2);
    expect(estimateColumnWidth(column("string"), ["first line\nsecond"], undefined)).toBe("first line".length + 2);
    expect(estimateColumnWidth(column("string"), ["a"], undefined)).toBe(6);
    expect(estimateColumnWidth(column("string"), ["x".repeat(500)], undefined)).toBe(80);
  });

  it("makes room for the header", () => {
    expect(estimateColumnWidth(column("string", "A rather long header"), ["x"], undefined)).toBeGreaterThan("A rather long header".length);
  });

  it("sizes numbers as their format shows them", () => {
    // "1,234,567.89 €" is 14 characters.
    expect(estimateColumnWidth(column("number"), [1_234_567.891], "#,##0.00 [$€-x-euro2]")).toBe(14 + 2);
    // "-12.50%" is 7 characters.
    expect(estimateColumnWidth(column("percent"), [-0.125], "0.00%")).toBe(7 + 2);
    // General shows the number as written.
    expect(estimateColumnWidth(column("number"), [123_456.789], undefined)).toBe("123456.789".length + 2);
    expect(estimateColumnWidth(column("boolean"), [true, false], undefined)).toBe(7);
  });

  it("sizes dates by their format", () => {
    expect(estimateColumnWidth(column("datetime"), ["2026-11-01T10:00:00Z"], "yyyy-mm-dd hh:mm:ss")).toBe(19 + 2);
  });
});
