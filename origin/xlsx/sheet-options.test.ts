import { createHash } from "node:crypto";
import sharp from "sharp";
import { cellsOf } from "../../test/support/xlsx-cells.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { findXlsxRequestErrors, xlsxRequestSchema } from "../../contracts/xlsx-request.ts";
import { builtWorkbook, bytesOf, part, attributesOf, refusal } from "./test-support/read-back.ts";

const build = (input: unknown) => builtWorkbook(input, { cellStyles: true });

const columns = [
  { key: "item", header: "Item" },
  { key: "qty", header: "Qty", type: "number" },
  { key: "price", header: "Price", type: "currency" },
];
const rows = [
  ["Paper", 10, 4.5],
  ["Ink", 2, 30],
  ["Pens", 25, 1.2],
  ["Tape", 4, 2.75],
];

describe("generateXlsx: notes and rich text", () => {
  it("writes each note with its text and author, and the VML shape Excel shows it through", async () => {
    const book = await build({
      sheets: [
        { name: "One", columns, rows, comments: [{ cell: "B2", text: "Counted <twice> & checked", author: "Stock" }, { cell: "D9", text: "Outside the data", visible: true }] },
        { name: "Two", columns, rows, comments: [{ cell: "A1", text: " padded ", author: "Stock" }] },
      ],
    });
    const sheet = cellsOf(book.Sheets.One!);
    expect(sheet.B2!.c).toEqual([expect.objectContaining({ a: "Stock", t: "Counted <twice> & checked" })]);
    expect(sheet.D9!.c).toEqual([expect.objectContaining({ t: "Outside the data" })]);
    expect(cellsOf(book.Sheets.Two!).A1!.c).toEqual([expect.objectContaining({ a: "Stock", t: " padded " })]);

    const comments = part(book, "xl/comments1.xml");
    expect(attributesOf(comments, "comment")).toEqual([
      { ref: "B2", authorId: "0" },
      { ref: "D9", authorId: "1" },
    ]);
    expect(comments).toContain("<authors><author>Stock</author><author></author></authors>");
    const vml = part(book, "xl/drawings/vmlDrawing1.vml");
    expect([...vml.matchAll(/<x:Row>(\d+)<\/x:Row><x:Column>(\d+)<\/x:Column>(<x:Visible\/>)?/g)].map((m) => [m[1], m[2], m[3] !== undefined])).toEqual([
      ["1", "1", false],
      ["8", "3", true],
    ]);
    // Each sheet's VML claims its own block of shape ids.
    expect(attributesOf(vml, "o:idmap")[0]).toMatchObject({ data: "1" });
    expect(attributesOf(part(book, "xl/drawings/vmlDrawing2.vml"), "o:idmap")[0]).toMatchObject({ data: "2" });
    const sheetXml = part(book, "xl/worksheets/sheet1.xml");
    const legacy = attributesOf(sheetXml, "legacyDrawing")[0]!["r:id"];
    const rels = attributesOf(part(book, "xl/worksheets/_rels/sheet1.xml.rels"), "Relationship");
    expect(rels.find((r) => r.Id === legacy)).toMatchObject({ Target: "../drawings/vmlDrawing1.vml" });
    expect(rels.some((r) => r.Target === "../comments1.xml" && r.Type?.endsWith("/comments"))).toBe(true);
    expect(part(book, "[Content_Types].xml")).toContain('PartName="/xl/comments1.xml"');
  });

  it("writes rich text as runs, each with its style's font, the cell keeping its own style", async () => {
    const book = await build({
      styles: { strong: { bold: true, color: "#C00000", size: 14, font: "Arial" }, box: { fill: "#FFF2CC" } },
      sheets: [{ name: "S", columns, rows, cells: { E1: { rich: [{ text: "Total ", style: "strong" }, { text: "(net)" }], style: "box" } } }],
    });
    expect(cellsOf(book.Sheets.S!).E1!.v).toBe("Total (net)");
    const xml = part(book, "xl/worksheets/sheet1.xml");
    const cell = /<c r="E1"([^>]*)><is>(.*?)<\/is><\/c>/.exec(xml);
    expect(cell).not.toBeNull();
    expect(cell![1]).toMatch(/ s="\d+" t="inlineStr"/);
    const runs = [...cell![2]!.matchAll(/<r>(?:<rPr>(.*?)<\/rPr>)?<t[^>]*>(.*?)<\/t><\/r>/g)].map((m) => [m[1], m[2]]);
    expect(runs).toEqual([
      ['<b/><sz val="14"/><color rgb="FFC00000"/><rFont val="Arial"/>', "Total "],
      [undefined, "(net)"],
    ]);
    expect(cell![2]).toContain('<t xml:space="preserve">Total </t>');
    const xf = Number(/ s="(\d+)"/.exec(cell![1]!)![1]);
    const xfs = [...part(book, "xl/styles.xml").matchAll(/<cellXfs count="\d+">(.*?)<\/cellXfs>/g)][0]![1]!;
    const fillId = attributesOf(xfs, "xf")[xf]!.fillId;
    expect(fillId).not.toBe("0");
  });
});

describe("generateXlsx: outline levels and hidden rows and columns", () => {
  it("levels and hides rows with data, and writes outlined rows and columns past the data", async () => {
    const book = await build({
      sheets: [
        {
          name: "S",
          columns,
          rows,
          cells: { A12: { value: "note" } },
          outline: {
            rows: [
              { range: "2:3", level: 1, hidden: true },
              { range: "9:10", level: 2 },
              { range: "14", level: 0, hidden: true },
            ],
            columns: [
              { range: "B:C", level: 1 },
              { range: "E:F", level: 2, hidden: true },
            ],
          },
        },
      ],
    });
    const xml = part(book, "xl/worksheets/sheet1.xml");
    const rowAttrs = attributesOf(xml, "row");
    expect(rowAttrs.map((r) => [r.r, r.outlineLevel, r.hidden])).toEqual([
      ["1", undefined, undefined],
      ["2", "1", "1"],
      ["3", "1", "1"],
      ["4", undefined, undefined],
      ["5", undefined, undefined],
      ["9", "2", undefined],
      ["10", "2", undefined],
      ["12", undefined, undefined],
      ["14", undefined, "1"],
    ]);
    expect(cellsOf(book.Sheets.S!).A2!.v).toBe("Paper");
    expect(cellsOf(book.Sheets.S!).A12!.v).toBe("note");
    expect(attributesOf(xml, "sheetFormatPr")[0]).toMatchObject({ outlineLevelRow: "2", outlineLevelCol: "2" });
    expect(attributesOf(xml, "col").map((c) => [c.min, c.max, c.outlineLevel, c.hidden])).toEqual([
      ["1", "1", undefined, undefined],
      ["2", "2", "1", undefined],
      ["3", "3", "1", undefined],
      ["5", "6", "2", "1"],
    ]);
  });
});

describe("generateXlsx: protection", () => {
  // Excel's agile password hash (MS-OFFCRYPTO 2.4.2.4), written out here independently of the writer.
  function excelHash(password: string, salt: Buffer, spins: number): string {
    let hash = createHash("sha512").update(salt).update(password, "utf16le").digest();
    for (let i = 0; i < spins; i++) {
      const counter = Buffer.alloc(4);
      counter.writeUInt32LE(i);
      hash = createHash("sha512").update(hash).update(counter).digest();
    }
    return hash.toString("base64");
  }

  it("stores only a salted SHA-512 hash of the sheet's and the workbook's passwords, and unlocks the cells whose style says so", async () => {
    const book = await build({
      styles: { input: { locked: false, fill: "#FFFFCC" }, secret: { hide_formula: true } },
      sheets: [
        {
          name: "S",
          columns: [...columns, { key: "mine", header: "Mine", style: "input" }],
          rows,
          cells: { E2: { formula: "B2*C2", style: "secret" } },
          protection: { password: "Tr0ub4dor&3", allow: ["format_columns", "sort"] },
        },
        { name: "Open", columns, rows, protection: {} },
      ],
      protection: { password: "structure" },
    });
    const xml = part(book, "xl/worksheets/sheet1.xml");
    expect(xml).not.toContain("Tr0ub4dor");
    const protection = attributesOf(xml, "sheetProtection")[0]!;
    expect(protection).toMatchObject({ algorithmName: "SHA-512", spinCount: "100000", sheet: "1", objects: "1", scenarios: "1", formatColumns: "0", sort: "0" });
    expect(protection.formatCells).toBeUndefined();
    expect(Buffer.from(protection.saltValue!, "base64")).toHaveLength(16);
    expect(protection.hashValue).toBe(excelHash("Tr0ub4dor&3", Buffer.from(protection.saltValue!, "base64"), 100_000));
    // sheetProtection sits right after sheetData, as the schema orders it.
    expect(xml).toMatch(/<\/sheetData><sheetProtection /);

    expect(attributesOf(part(book, "xl/worksheets/sheet2.xml"), "sheetProtection")).toEqual([{ sheet: "1", objects: "1", scenarios: "1" }]);

    const workbook = part(book, "xl/workbook.xml");
    const locked = attributesOf(workbook, "workbookProtection")[0]!;
    expect(locked).toMatchObject({ workbookAlgorithmName: "SHA-512", workbookSpinCount: "100000", lockStructure: "1" });
    expect(locked.workbookHashValue).toBe(excelHash("structure", Buffer.from(locked.workbookSaltValue!, "base64"), 100_000));
    expect(workbook).toMatch(/<workbookPr [^>]*\/><workbookProtection /);

    const styles = part(book, "xl/styles.xml");
    expect(styles).toMatch(/<xf [^>]*fillId="[1-9]\d*"[^>]*applyProtection="1"><protection locked="0"\/><\/xf>/);
    expect(styles).toMatch(/<xf [^>]*applyProtection="1"><protection hidden="1"\/><\/xf>/);
  });
});

describe("generateXlsx: print setup", () => {
  it("writes orientation, paper, margins, fit-to, header and footer, and names the print area and titles", async () => {
    const book = await build({
      sheets: [
        { name: "Plain", columns, rows },
        {
          name: "Q&A's",
          columns,
          rows,
          print: {
            orientation: "landscape",
            paper: "a4",
            margins: { left: 0.5, right: 0.5, top: 1, bottom: 1 },
            fit_to: { width: 1 },
            print_area: "A1:C5",
            repeat_rows: "1",
            repeat_columns: "A:B",
            header: { center: "Stock & prices" },
            footer: { left: "{sheet}", right: "Page {page} of {pages}" },
            gridlines: true,
            center_horizontally: true,
          },
        },
      ],
    });
    const plain = part(book, "xl/worksheets/sheet1.xml");
    expect(plain).toContain('<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>');
    expect(plain).not.toContain("<pageSetup");

    const xml = part(book, "xl/worksheets/sheet2.xml");
    expect(xml).toMatch(/^<\?xml[^>]*>\s*<worksheet [^>]*><sheetPr><pageSetUpPr fitToPage="1"\/><\/sheetPr><sheetViews>/);
    expect(attributesOf(xml, "printOptions")[0]).toEqual({ horizontalCentered: "1", gridLines: "1" });
    expect(attributesOf(xml, "pageMargins")[0]).toEqual({ left: "0.5", right: "0.5", top: "1", bottom: "1", header: "0.3", footer: "0.3" });
    expect(attributesOf(xml, "pageSetup")[0]).toEqual({ paperSize: "9", fitToWidth: "1", fitToHeight: "0", orientation: "landscape" });
    expect(/<oddHeader>(.*?)<\/oddHeader>/.exec(xml)![1]).toBe("&amp;CStock &amp;&amp; prices");
    expect(/<oddFooter>(.*?)<\/oddFooter>/.exec(xml)![1]).toBe("&amp;L&amp;A&amp;RPage &amp;P of &amp;N");
    expect(xml).toMatch(/<pageMargins [^>]*\/><pageSetup [^>]*\/><headerFooter>/);

    const names = (book.Workbook?.Names ?? []).map((n) => [n.Name, n.Sheet, n.Ref]);
    expect(names).toEqual(
      expect.arrayContaining([
        ["_xlnm.Print_Area", 1, "'Q&A''s'!$A$1:$C$5"],
        ["_xlnm.Print_Titles", 1, "'Q&A''s'!$A:$B,'Q&A''s'!$1:$1"],
      ]),
    );
  });
});

describe("generateXlsx: pictures", () => {
  let png: Buffer;
  let jpeg: Buffer;
  beforeAll(async () => {
    png = await sharp({ create: { width: 40, height: 20, channels: 4, background: "#3366CC" } }).png().toBuffer();
    jpeg = await sharp({ create: { width: 30, height: 60, channels: 3, background: "#CC6633" } }).jpeg().toBuffer();
  });

  it("embeds each picture whole and anchors it at its cell with its offset and size", async () => {
    const book = await build({
      sheets: [
        {
          name: "S",
          columns,
          rows,
          charts: [{ type: "column", anchor: "H2", series: [{ values: "B2:B5" }] }],
          images: [
            { source: { base64: png.toString("base64") }, anchor: "E2", alt_text: "Logo" },
            { source: { base64: jpeg.toString("base64url") }, anchor: "E10", offset: { x: 5, y: 7 }, width: 90 },
          ],
        },
      ],
    });
    expect(bytesOf(book, "xl/media/image1.png").equals(png)).toBe(true);
    expect(bytesOf(book, "xl/media/image2.jpeg").equals(jpeg)).toBe(true);
    expect((await sharp(bytesOf(book, "xl/media/image1.png")).metadata()).width).toBe(40);

    const drawing = part(book, "xl/drawings/drawing1.xml");
    expect(drawing.match(/<xdr:graphicFrame/g)).toHaveLength(1);
    const pictures = [...drawing.matchAll(/<xdr:oneCellAnchor><xdr:from><xdr:col>(\d+)<\/xdr:col><xdr:colOff>(\d+)<\/xdr:colOff><xdr:row>(\d+)<\/xdr:row><xdr:rowOff>(\d+)<\/xdr:rowOff><\/xdr:from><xdr:ext cx="(\d+)" cy="(\d+)"\/><xdr:pic>/g)].map((m) => m.slice(1).map(Number));
    expect(pictures).toEqual([
      [4, 0, 1, 0, 40 * 9525, 20 * 9525],
      [4, 5 * 9525, 9, 7 * 9525, 90 * 9525, 180 * 9525],
    ]);
    expect(attributesOf(drawing, "xdr:cNvPr").map((a) => [a.id, a.descr])).toEqual([
      ["2", undefined],
      ["3", "Logo"],
      ["4", undefined],
    ]);
    const embeds = attributesOf(drawing, "a:blip").map((a) => a["r:embed"]);
    const rels = attributesOf(part(book, "xl/drawings/_rels/drawing1.xml.rels"), "Relationship");
    expect(embeds.map((id) => rels.find((r) => r.Id === id)?.Target)).toEqual(["../media/image1.png", "../media/image2.jpeg"]);
    const types = part(book, "[Content_Types].xml");
    expect(types).toContain('<Override PartName="/xl/media/image1.png" ContentType="image/png"/>');
    expect(types).toContain('<Override PartName="/xl/media/image2.jpeg" ContentType="image/jpeg"/>');
  });

  it("refuses a picture that is not PNG or JPEG, is not base64, or is too large, naming it", async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } }).gif().toBuffer();
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    png.copy(big);
    const invalid = await refusal({
      sheets: [{ name: "S", columns, rows, images: [{ source: { base64: gif.toString("base64") }, anchor: "E2" }, { source: { base64: "not base64!" }, anchor: "E3" }] }],
    });
    expect(invalid).toMatchObject({ slug: "validation_failed", status: 400 });
    expect(invalid.errors?.map((e) => e.pointer)).toEqual(["/sheets/0/images/0/source/base64", "/sheets/0/images/1/source/base64"]);
    expect(invalid.errors?.[0]?.detail).toContain("PNG or JPEG");

    const limits = await refusal({ sheets: [{ name: "S", columns, rows, images: [{ source: { base64: big.toString("base64") }, anchor: "E2" }] }] });
    expect(limits).toMatchObject({ slug: "xlsx_limits", status: 422 });
    expect(limits.errors?.map((e) => e.pointer)).toEqual(["/sheets/0/images/0/source/base64"]);
  });
});

describe("picture sources", () => {
  it("are any envelope source in the public request, but only base64 at the origin, which the edge feeds resolved bytes", async () => {
    const input = { sheets: [{ name: "S", columns, rows, images: [{ source: { file_id: "file_abc" }, anchor: "E2" }, { source: { url: "https://example.com/logo.png" }, anchor: "E9" }] }] };
    expect(findXlsxRequestErrors(xlsxRequestSchema.parse(input)).invalidCount).toBe(0);
    const error = await refusal(input);
    expect(error).toMatchObject({ slug: "validation_failed", status: 400 });
    expect(error.errors?.map((e) => e.pointer)).toEqual(["/sheets/0/images/0/source", "/sheets/0/images/1/source"]);
  });
});

describe("generateXlsx: refuses what the new features cannot write, with pointers", () => {
  it("refuses two notes on a cell, overlapping outline spans, an idle level 0, fit_to with scale, a missing run style and Excel's own names", async () => {
    const error = await refusal({
      sheets: [
        {
          name: "S",
          columns,
          rows,
          cells: { E1: { rich: [{ text: "a", style: "nope" }] } },
          comments: [
            { cell: "A1", text: "one" },
            { cell: "A1", text: "two" },
          ],
          outline: { rows: [{ range: "2:5" }, { range: "4:8", level: 2 }], columns: [{ range: "B", level: 0 }] },
          print: { fit_to: { width: 1, height: 1 }, scale: 80 },
        },
      ],
      defined_names: [{ name: "_xlnm.Print_Area", range: "A1:B2" }],
    });
    expect(error).toMatchObject({ slug: "validation_failed", status: 400 });
    expect(error.errors?.map((e) => e.pointer)).toEqual([
      "/sheets/0/cells/E1/rich/0/style",
      "/defined_names/0/name",
      "/sheets/0/comments/1/cell",
      "/sheets/0/outline/rows/1/range",
      "/sheets/0/outline/columns/0",
      "/sheets/0/print/scale",
    ]);
  });

  it("refuses what Excel cannot hold: a coded header over 255 characters, spans and notes off the grid, a rich cell over 32,767 characters, too many passwords", async () => {
    const error = await refusal({
      protection: { password: "book" },
      sheets: [
        ...Array.from({ length: 8 }, (_, i) => ({ name: `P${i}`, columns, protection: { password: `sheet ${i}` } })),
        {
          name: "S",
          columns,
          rows,
          cells: { E1: { rich: [{ text: "x".repeat(20_000) }, { text: "y".repeat(20_000) }] } },
          comments: [{ cell: "XFE1", text: "off" }],
          outline: { rows: [{ range: "1048570:1048577" }] },
          print: { header: { left: "&".repeat(200) } },
        },
      ],
    });
    expect(error).toMatchObject({ slug: "xlsx_limits", status: 422 });
    expect(error.errors?.map((e) => e.pointer)).toEqual(["/sheets/8/cells/E1/rich", "/sheets/8/comments/0/cell", "/sheets/8/outline/rows/0/range", "/sheets/8/print/header", "/sheets"]);
  });
});
