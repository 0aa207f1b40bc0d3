// Page setup: print options, margins, paper and scaling, header and footer (in the sheet's
// fixed element order), plus the print area and print titles, which Excel keeps as names
// local to the sheet (`_xlnm.Print_Area`, `_xlnm.Print_Titles`).
import { absoluteRange, parseA1Range, parseColumnSpan, parseRowSpan, columnLetters } from "../../contracts/xlsx-a1.ts";
import { headerFooterCode, XLSX_PAPER_SIZES, type XlsxPrint } from "../../contracts/xlsx-sheet-options.ts";
import type { DefinedName } from "./package-parts.ts";
import { attribute, xmlText } from "./xml-text.ts";

const DEFAULT_MARGINS = '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>';

/** `<sheetPr>`'s page-setup flag: fit-to scaling is only honoured with it. */
export function pageSetupProperties(print: XlsxPrint | undefined): string {
  return print?.fit_to ? '<pageSetUpPr fitToPage="1"/>' : "";
}

/** printOptions, pageMargins, pageSetup and headerFooter. */
export function printXml(print: XlsxPrint | undefined): string {
  if (!print) return DEFAULT_MARGINS;
  const options =
    attribute("horizontalCentered", print.center_horizontally || undefined) +
    attribute("verticalCentered", print.center_vertically || undefined) +
    attribute("gridLines", print.gridlines || undefined);
  const m = print.margins;
  const margins = m ? `<pageMargins left="${m.left}" right="${m.right}" top="${m.top}" bottom="${m.bottom}" header="${m.header}" footer="${m.footer}"/>` : DEFAULT_MARGINS;
  const setup =
    attribute("paperSize", print.paper === undefined ? undefined : XLSX_PAPER_SIZES[print.paper]) +
    attribute("scale", print.scale) +
    attribute("fitToWidth", print.fit_to?.width) +
    attribute("fitToHeight", print.fit_to?.height) +
    ` orientation="${print.orientation}"`;
  const header = print.header ? `<oddHeader>${xmlText(headerFooterCode(print.header))}</oddHeader>` : "";
  const footer = print.footer ? `<oddFooter>${xmlText(headerFooterCode(print.footer))}</oddFooter>` : "";
  return (options ? `<printOptions${options}/>` : "") + margins + `<pageSetup${setup}/>` + (header || footer ? `<headerFooter>${header}${footer}</headerFooter>` : "");
}

/** The sheet's print area and print titles as names local to sheet `localSheet`. */
export function printNames(print: XlsxPrint | undefined, sheetName: string, localSheet: number): DefinedName[] {
  if (!print) return [];
  const sheet = `'${sheetName.replace(/'/g, "''")}'!`;
  const names: DefinedName[] = [];
  if (print.print_area !== undefined) names.push({ name: "_xlnm.Print_Area", localSheet, formula: sheet + absoluteRange(parseA1Range(print.print_area)) });
  const titles: string[] = [];
  if (print.repeat_columns !== undefined) {
    const { first, last } = parseColumnSpan(print.repeat_columns);
    titles.push(`${sheet}$${columnLetters(first)}:$${columnLetters(last)}`);
  }
  if (print.repeat_rows !== undefined) {
    const { first, last } = parseRowSpan(print.repeat_rows);
    titles.push(`${sheet}$${first}:$${last}`);
  }
  if (titles.length > 0) names.push({ name: "_xlnm.Print_Titles", localSheet, formula: titles.join(",") });
  return names;
}
