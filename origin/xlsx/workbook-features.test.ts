import { describe, expect, it } from "vitest";
import { builtWorkbook, part, attributesOf, refusal } from "./test-support/read-back.ts";

const build = (input: unknown) => builtWorkbook(input, { cellFormula: true });

const sales = {
  columns: [
    { key: "region", header: "Region" },
    { key: "q1", header: "Q1", type: "number" },
    { key: "q2", header: "Q2", type: "number" },
  ],
  rows: [
    ["North", 10, 12],
    ["South", 7, 9],
    ["East", 4, 11],
  ],
};

const report = {
  sheets: [
    {
      name: "Sales 2025",
      ...sales,
      tables: [{ name: "Sales", range: "A1:C5", style: "TableStyleLight9", totals_row: true, columns: [{ total_label: "Total" }, { total: "sum" }, { total: "average" }] }],
      charts: [
        {
          type: "column",
          subtype: "stacked",
          title: "By region",
          anchor: "E2",
          size: { width: 600, height: 300 },
          series: [
            { name: "Q1", categories: "A2:A4", values: "B2:B4" },
            { name: "Q2", categories: "A2:A4", values: "C2:C4" },
          ],
          x_axis: { title: "Region" },
          y_axis: { title: "Units" },
          legend: { position: "bottom" },
        },
      ],
    },
    {
      name: "Summary",
      columns: [{ key: "note", header: "Note" }],
      rows: [["see chart"]],
      charts: [
        { type: "pie", anchor: "C3", series: [{ categories: "'Sales 2025'!A2:A4", values: "'Sales 2025'!$B$2:$B$4" }] },
        { type: "scatter", anchor: "C20", series: [{ name: "Q1 vs Q2", categories: "'Sales 2025'!B2:B4", values: "'Sales 2025'!C2:C4" }] },
        { type: "bar", subtype: "percent_stacked", anchor: "K3", series: [{ values: "'Sales 2025'!B2:B4" }, { values: "'Sales 2025'!C2:C4" }] },
        { type: "line", anchor: "K20", series: [{ values: "'Sales 2025'!B2:B4" }] },
        { type: "area", subtype: "stacked", anchor: "S3", series: [{ values: "'Sales 2025'!B2:B4" }, { values: "'Sales 2025'!C2:C4" }] },
        { type: "doughnut", anchor: "S20", legend: { position: "none" }, series: [{ values: "'Sales 2025'!C2:C4" }] },
      ],
    },
  ],
  defined_names: [
    { name: "FirstQuarter", range: "'Sales 2025'!B2:B4" },
    { name: "Region_names", range: "A2:A4" },
  ],
};

describe("generateXlsx: tables, charts and defined names, read back from the parts", () => {
  it("writes the table with its range, style, columns and totals, and the cells it needs", async () => {
    const book = await build(report);
    const table = part(book, "xl/tables/table1.xml");
    expect(attributesOf(table, "table")[0]).toMatchObject({ name: "Sales", displayName: "Sales", ref: "A1:C5", totalsRowCount: "1" });
    expect(attributesOf(table, "autoFilter")[0]).toEqual({ ref: "A1:C4" });
    expect(attributesOf(table, "tableColumn")).toEqual([
      { id: "1", name: "Region", totalsRowLabel: "Total" },
      { id: "2", name: "Q1", totalsRowFunction: "sum" },
      { id: "3", name: "Q2", totalsRowFunction: "average" },
    ]);
    expect(attributesOf(table, "tableStyleInfo")[0]).toMatchObject({ name: "TableStyleLight9", showRowStripes: "1" });
    const sheet = book.Sheets["Sales 2025"]!;
    expect(sheet.A5).toMatchObject({ t: "s", v: "Total" });
    // SheetJS drops a formula cell with a structured reference and no cached value, so read the XML.
    const xml = part(book, "xl/worksheets/sheet1.xml");
    expect(xml).toMatch(/<c r="B5"[^>]*><f>SUBTOTAL\(109,Sales\[Q1\]\)<\/f><\/c>/);
    expect(xml).toMatch(/<c r="C5"[^>]*><f>SUBTOTAL\(101,Sales\[Q2\]\)<\/f><\/c>/);
    expect(part(book, "xl/worksheets/_rels/sheet1.xml.rels")).toContain('Target="../tables/table1.xml"');
    expect(part(book, "[Content_Types].xml")).toContain('PartName="/xl/tables/table1.xml"');
  });

  it("writes each chart type over ranges of its own and another sheet, anchored where asked", async () => {
    const book = await build(report);
    const column = part(book, "xl/charts/chart1.xml");
    expect(column).toContain('<c:barDir val="col"/><c:grouping val="stacked"/>');
    expect([...column.matchAll(/<c:f>([^<]*)<\/c:f>/g)].map((m) => m[1])).toEqual([
      "'Sales 2025'!$A$2:$A$4",
      "'Sales 2025'!$B$2:$B$4",
      "'Sales 2025'!$A$2:$A$4",
      "'Sales 2025'!$C$2:$C$4",
    ]);
    expect(column).toContain("<a:t>By region</a:t>");
    expect(column).toContain("<a:t>Units</a:t>");
    expect(column).toContain('<c:legendPos val="b"/>');
    const drawing = part(book, "xl/drawings/drawing1.xml");
    expect(drawing).toMatch(/<xdr:from><xdr:col>4<\/xdr:col><xdr:colOff>0<\/xdr:colOff><xdr:row>1<\/xdr:row>/);
    expect(attributesOf(drawing, "xdr:ext")[0]).toEqual({ cx: String(600 * 9525), cy: String(300 * 9525) });
    expect(part(book, "xl/worksheets/sheet1.xml")).toMatch(/<drawing r:id="rId\d+"\/>/);

    const kinds = [2, 3, 4, 5, 6, 7].map((n) => part(book, `xl/charts/chart${n}.xml`));
    expect(kinds[0]).toContain("<c:pieChart>");
    expect(kinds[0]).toContain("<c:f>'Sales 2025'!$B$2:$B$4</c:f>");
    expect(kinds[1]).toMatch(/<c:scatterChart>.*<c:xVal><c:numRef><c:f>'Sales 2025'!\$B\$2:\$B\$4<\/c:f>.*<c:yVal><c:numRef><c:f>'Sales 2025'!\$C\$2:\$C\$4<\/c:f>/);
    expect(kinds[2]).toContain('<c:barDir val="bar"/><c:grouping val="percentStacked"/>');
    expect(kinds[3]).toContain('<c:lineChart><c:grouping val="standard"/>');
    expect(kinds[4]).toContain('<c:areaChart><c:grouping val="stacked"/>');
    expect(kinds[5]).toContain("<c:doughnutChart>");
    expect(kinds[5]).not.toContain("<c:legend>");
    const drawing2 = part(book, "xl/drawings/drawing2.xml");
    expect(drawing2.match(/<xdr:graphicFrame/g)).toHaveLength(6);
    expect(part(book, "xl/drawings/_rels/drawing2.xml.rels").match(/charts\/chart\d\.xml/g)).toEqual(["charts/chart2.xml", "charts/chart3.xml", "charts/chart4.xml", "charts/chart5.xml", "charts/chart6.xml", "charts/chart7.xml"]);
  });

  it("carries a theme, since chart series and table styles take its colours (without one LibreOffice fills no series)", async () => {
    const book = await builtWorkbook(report, { cellStyles: true });
    // SheetJS reads the theme (with cellStyles) but its types do not declare it.
    const { Themes } = book as unknown as { Themes: { themeElements?: { clrScheme?: { name: string; rgb: string }[] } } };
    const scheme = Themes.themeElements?.clrScheme ?? [];
    expect(Object.fromEntries(scheme.map((colour) => [colour.name, colour.rgb]))).toMatchObject({ dk1: "000000", lt1: "FFFFFF", accent1: "4472C4", accent2: "ED7D31", accent6: "70AD47" });
    expect(part(book, "xl/_rels/workbook.xml.rels")).toMatch(/Type="http:\/\/schemas\.openxmlformats\.org\/officeDocument\/2006\/relationships\/theme" Target="theme\/theme1\.xml"/);
    expect(part(book, "[Content_Types].xml")).toContain('<Override PartName="/xl/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>');
  });

  it("names ranges at the workbook level, on the first sheet when none is given", async () => {
    const book = await build(report);
    const names = Object.fromEntries((book.Workbook?.Names ?? []).map((n) => [n.Name, n.Ref]));
    expect(names).toMatchObject({ FirstQuarter: "'Sales 2025'!$B$2:$B$4", Region_names: "'Sales 2025'!$A$2:$A$4" });
  });
});

describe("generateXlsx: refuses features Excel would have to repair, with pointers", () => {
  it("refuses a chart over a missing sheet, series of different lengths and a pie subtype", async () => {
    const error = await refusal({
      sheets: [
        {
          name: "S",
          ...sales,
          charts: [
            { type: "column", anchor: "E2", series: [{ values: "'Nope'!B2:B4" }, { categories: "A2:A4", values: "B2:B3" }, { values: "A1:C3" }] },
            { type: "pie", subtype: "stacked", anchor: "E20", series: [{ values: "B2:B4" }] },
          ],
        },
      ],
    });
    expect(error).toMatchObject({ slug: "validation_failed", status: 400 });
    expect(error.errors?.map((e) => e.pointer)).toEqual([
      "/sheets/0/charts/0/series/0/values",
      "/sheets/0/charts/0/series/1/categories",
      "/sheets/0/charts/0/series/2/values",
      "/sheets/0/charts/1/subtype",
    ]);
  });

  it("refuses overlapping tables, a table over a merge, and a table name a defined name already uses", async () => {
    const error = await refusal({
      sheets: [
        {
          name: "S",
          ...sales,
          merges: ["E1:F1"],
          tables: [
            { name: "First", range: "A1:B4" },
            { name: "Second", range: "B1:C4" },
            { name: "Merged", range: "E1:F3" },
            { name: "taxrate", range: "H1:H3" },
          ],
        },
      ],
      defined_names: [{ name: "TaxRate", range: "A1" }, { name: "B2", range: "A1" }],
    });
    expect(error.errors?.map((e) => e.pointer)).toEqual(["/sheets/0/tables/1/range", "/sheets/0/tables/2/range", "/defined_names/0/name", "/defined_names/1/name"]);
  });
});

describe("generateXlsx: every validation and conditional-format kind, read back from the sheet XML", () => {
  const rules = {
    styles: { warn: { color: "#9C0006", fill: "#FFC7CE" } },
    sheets: [
      {
        name: "Rules",
        ...sales,
        data_validations: [
          { type: "whole", range: "B2:C5", operator: "between", values: [0, 1000], error_message: "0 to 1000" },
          { type: "decimal", range: "D2:D5", operator: "greater_than", values: [0.5] },
          { type: "date", range: "E2:E5", operator: "less_than", values: ["2026-01-31"] },
          { type: "time", range: "F2:F5", operator: "not_between", values: ["09:00", "17:30"] },
          { type: "text_length", range: "A2:A5", operator: "less_than_or_equal", values: [20] },
          { type: "custom", range: "G2:G5", formula: "=ISNUMBER(G2)", prompt: "A number" },
          { type: "list", range: "H2:H5", values: ["open", "paid"] },
        ],
        conditional_formats: [
          { type: "data_bar", range: "B2:B4", color: "#63BE7B" },
          { type: "icon_set", range: "C2:C4", icons: "5_ratings" },
          { type: "formula", range: "A2:C4", formula: "$B2>$C2", style: "warn" },
          { type: "top", range: "B2:B4", rank: 1, style: "warn" },
          { type: "bottom", range: "C2:C4", rank: 10, percent: true, style: "warn" },
          { type: "duplicate", range: "A2:A4", style: "warn" },
          { type: "unique", range: "B2:B4", style: "warn" },
          { type: "text", range: "A2:A4", operator: "begins_with", text: "No\"rth", style: "warn" },
          { type: "text", range: "A2:A4", operator: "contains", text: "ou", style: "warn" },
        ],
      },
    ],
  };

  it("writes each validation with its type, operator and values", async () => {
    const xml = part(await build(rules), "xl/worksheets/sheet1.xml");
    const validations = [...xml.matchAll(/<dataValidation ([^>]*)>(.*?)<\/dataValidation>/g)].map((m) => ({
      attrs: Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
      formulas: [...m[2]!.matchAll(/<formula\d>(.*?)<\/formula\d>/g)].map((f) => f[1]),
    }));
    expect(validations.map((v) => [v.attrs.type, v.attrs.operator, v.attrs.sqref, v.formulas])).toEqual([
      ["whole", undefined, "B2:C5", ["0", "1000"]],
      ["decimal", "greaterThan", "D2:D5", ["0.5"]],
      ["date", "lessThan", "E2:E5", [String((Date.UTC(2026, 0, 31) - Date.UTC(1899, 11, 30)) / 86_400_000)]],
      ["time", "notBetween", "F2:F5", [String(9 / 24), String(17.5 / 24)]],
      ["textLength", "lessThanOrEqual", "A2:A5", ["20"]],
      ["custom", undefined, "G2:G5", ["ISNUMBER(G2)"]],
      ["list", undefined, "H2:H5", ["&quot;open,paid&quot;"]],
    ]);
    expect(validations[0]!.attrs.error).toBe("0 to 1000");
    expect(validations[5]!.attrs).toMatchObject({ prompt: "A number", showInputMessage: "1" });
  });

  it("writes each conditional format with its rule, in priority order, styled through dxfs", async () => {
    const book = await build(rules);
    const xml = part(book, "xl/worksheets/sheet1.xml");
    const cfRules = attributesOf(xml, "cfRule");
    expect(cfRules.map((r) => [r.type, r.priority])).toEqual([
      ["dataBar", "1"],
      ["iconSet", "2"],
      ["expression", "3"],
      ["top10", "4"],
      ["top10", "5"],
      ["duplicateValues", "6"],
      ["uniqueValues", "7"],
      ["beginsWith", "8"],
      ["containsText", "9"],
    ]);
    expect(xml).toContain('<dataBar><cfvo type="min"/><cfvo type="max"/><color rgb="FF63BE7B"/></dataBar>');
    expect(attributesOf(xml, "iconSet")[0]).toEqual({ iconSet: "5Rating" });
    expect(attributesOf(xml, "cfvo").filter((c) => c.type === "percent")).toHaveLength(5);
    expect(xml).toContain("<formula>$B2&gt;$C2</formula>");
    expect(cfRules[3]).toMatchObject({ rank: "1" });
    expect(cfRules[4]).toMatchObject({ rank: "10", percent: "1", bottom: "1" });
    expect(cfRules[7]).toMatchObject({ operator: "beginsWith", text: "No&quot;rth" });
    expect(xml).toContain("<formula>LEFT(A2,LEN(&quot;No&quot;&quot;rth&quot;))=&quot;No&quot;&quot;rth&quot;</formula>");
    expect(xml).toContain("<formula>NOT(ISERROR(SEARCH(&quot;ou&quot;,A2)))</formula>");
    // Every styled rule points at the one dxf of the `warn` style.
    expect(new Set(cfRules.filter((r) => r.dxfId !== undefined).map((r) => r.dxfId))).toEqual(new Set(["0"]));
    expect(part(book, "xl/styles.xml")).toMatch(/<dxfs count="1"><dxf><font><color rgb="FF9C0006"\/><\/font><fill><patternFill patternType="solid"><bgColor rgb="FFFFC7CE"\/>/);
  });

  it("refuses a comparison with the wrong number of values and a date that is not one", async () => {
    const error = await refusal({
      sheets: [{ name: "S", ...sales, data_validations: [{ type: "whole", range: "B2", operator: "between", values: [1] }, { type: "date", range: "C2", operator: "equal", values: ["31/01/2026"] }] }],
    });
    expect(error.errors?.map((e) => e.pointer)).toEqual(["/sheets/0/data_validations/0/values", "/sheets/0/data_validations/1/values/0"]);
  });
});
