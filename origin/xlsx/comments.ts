// Cell notes: the comments part holds authors and text; Excel shows a note only through a
// legacy VML drawing with one shape per note, so both parts are written for each sheet.
import { parseA1Cell } from "../../contracts/xlsx-a1.ts";
import type { XlsxComment } from "../../contracts/xlsx-sheet-options.ts";
import { XML_DECLARATION, textElement, xmlText } from "./xml-text.ts";

export function commentsXml(comments: readonly XlsxComment[]): string {
  const authors: string[] = [];
  const authorIds = new Map<string, number>();
  const authorId = (name: string) => {
    let id = authorIds.get(name);
    if (id === undefined) {
      id = authors.length;
      authors.push(name);
      authorIds.set(name, id);
    }
    return id;
  };
  const list = comments.map((comment) => `<comment ref="${comment.cell}" authorId="${authorId(comment.author ?? "")}"><text><r>${textElement(comment.text)}</r></text></comment>`).join("");
  return (
    `${XML_DECLARATION}<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
    `<authors>${authors.map((name) => `<author>${xmlText(name)}</author>`).join("")}</authors>` +
    `<commentList>${list}</commentList></comments>`
  );
}

// Shape ids are unique across the workbook: a VML drawing claims blocks of 1024 ids in its idmap.
const SHAPES_PER_BLOCK = 1024;

/** Id blocks a sheet's notes need (shape ids start at 1 in the first block). */
export function vmlBlocks(comments: number): number {
  return Math.floor(comments / SHAPES_PER_BLOCK) + 1;
}

/** The VML drawing for the notes of one sheet, its shape ids in the blocks from `block` (1, 2, ...) on. */
export function commentsVml(comments: readonly XlsxComment[], block: number): string {
  const blocks = Array.from({ length: vmlBlocks(comments.length) }, (_, i) => block + i).join(",");
  const shapes = comments
    .map((comment, i) => {
      const { row, col } = parseA1Cell(comment.cell);
      // The box sits to the right of the cell, a row above it (as Excel places a new note).
      const top = Math.max(row - 2, 0);
      const anchor = `${col}, 15, ${top}, 10, ${col + 2}, 15, ${top + 4}, 4`;
      return (
        `<v:shape id="_x0000_s${block * SHAPES_PER_BLOCK + i + 1}" type="#_x0000_t202" style="position:absolute;margin-left:59.25pt;margin-top:1.5pt;width:108pt;height:59.25pt;z-index:${i + 1};visibility:${comment.visible ? "visible" : "hidden"}" fillcolor="#ffffe1" o:insetmode="auto">` +
        '<v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/><v:path o:connecttype="none"/>' +
        '<v:textbox style="mso-direction-alt:auto"><div style="text-align:left"></div></v:textbox>' +
        `<x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>${anchor}</x:Anchor><x:AutoFill>False</x:AutoFill>` +
        `<x:Row>${row - 1}</x:Row><x:Column>${col - 1}</x:Column>${comment.visible ? "<x:Visible/>" : ""}</x:ClientData></v:shape>`
      );
    })
    .join("");
  return (
    '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel">' +
    `<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="${blocks}"/></o:shapelayout>` +
    '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>' +
    `${shapes}</xml>`
  );
}
