import { describe, expect, it } from "vitest";
import { XLSX_FEATURES, xlsxFeatureTableMarkdown } from "./xlsx-feature-table.ts";
import { xlsxRequestSchema } from "./xlsx-request.ts";

describe("the xlsx feature table", () => {
  it("has one row for each field of the request and of a sheet, and none for fields that do not exist", () => {
    const workbookFields = Object.keys(xlsxRequestSchema.shape).filter((key) => key !== "sheets");
    const sheetFields = Object.keys(xlsxRequestSchema.shape.sheets.element.shape).map((key) => `sheets[].${key}`);
    expect(XLSX_FEATURES.map((row) => row.field).sort()).toEqual([...workbookFields, ...sheetFields].sort());
  });

  it("renders as a Markdown table with a line per feature", () => {
    const lines = xlsxFeatureTableMarkdown().split("\n");
    expect(lines).toHaveLength(XLSX_FEATURES.length + 2);
    expect(lines).toContain("| `sheets[].charts` | Native column, bar, line, pie, doughnut, scatter and area charts (stacked forms too) over ranges of any sheet. |");
  });
});
