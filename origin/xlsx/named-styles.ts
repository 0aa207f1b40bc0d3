// The request's named styles as SpreadsheetML: fonts, fills, borders and number formats each
// kept once, and one cell format (xf) per distinct combination, so two names with the same
// look, or a style used by a million cells, cost one entry. Differential formats (dxf) carry
// only what a conditional format changes.
import type { XlsxRequest, XlsxStyle } from "../../contracts/xlsx-request.ts";
import { attribute, xmlText, XML_DECLARATION } from "./xml-text.ts";

/** What a cell needs: its xf index, and its number format (autofit sizes values by it). */
export interface CellLook {
  xf: number;
  numFmt: string | undefined;
}

const DEFAULT_FONT = { name: "Calibri", size: 11 } as const;
const DEFAULT_FONT_XML = `<font><sz val="${DEFAULT_FONT.size}"/><name val="${DEFAULT_FONT.name}"/><family val="2"/></font>`;
const FIRST_CUSTOM_NUM_FMT = 164;
const BUILTIN_NUM_FMTS = new Map<string, number>([
  ["General", 0],
  ["0", 1],
  ["0.00", 2],
  ["#,##0", 3],
  ["#,##0.00", 4],
  ["0%", 9],
  ["0.00%", 10],
  ["0.00E+00", 11],
  ["# ?/?", 12],
  ["# ??/??", 13],
  ["mm-dd-yy", 14],
  ["d-mmm-yy", 15],
  ["d-mmm", 16],
  ["mmm-yy", 17],
  ["h:mm AM/PM", 18],
  ["h:mm:ss AM/PM", 19],
  ["h:mm", 20],
  ["h:mm:ss", 21],
  ["m/d/yy h:mm", 22],
  ["@", 49],
]);

function rgb(hex: string): string {
  return `FF${hex.slice(1).toUpperCase()}`;
}

/** Font properties in the order Excel writes them; `face` adds size and name (a cell font replaces the default whole). */
export function fontBody(style: XlsxStyle, face: boolean): string {
  let xml = "";
  if (style.bold) xml += "<b/>";
  if (style.italic) xml += "<i/>";
  if (style.strike) xml += "<strike/>";
  if (style.underline) xml += "<u/>";
  if (face || style.size !== undefined) xml += `<sz val="${style.size ?? DEFAULT_FONT.size}"/>`;
  if (style.color !== undefined) xml += `<color rgb="${rgb(style.color)}"/>`;
  if (face || style.font !== undefined) xml += `<name val="${xmlText(style.font ?? DEFAULT_FONT.name)}"/>`;
  return xml;
}

function hasFont(style: XlsxStyle): boolean {
  return [style.bold, style.italic, style.underline, style.strike, style.color, style.size, style.font].some((v) => v !== undefined);
}

function borderXml(border: XlsxStyle["border"]): string {
  if (!border) return "<border><left/><right/><top/><bottom/><diagonal/></border>";
  const color = border.color !== undefined ? `<color rgb="${rgb(border.color)}"/>` : "";
  const side = (name: "left" | "right" | "top" | "bottom") => (border.sides.includes(name) ? `<${name} style="${border.style}">${color}</${name}>` : `<${name}/>`);
  return `<border>${side("left")}${side("right")}${side("top")}${side("bottom")}<diagonal/></border>`;
}

function alignmentXml(alignment: XlsxStyle["alignment"]): string {
  if (!alignment) return "";
  const vertical = alignment.vertical === "middle" ? "center" : alignment.vertical;
  // Excel stores downward rotation as 91..180.
  const rotation = alignment.rotation === undefined ? undefined : alignment.rotation < 0 ? 90 - alignment.rotation : alignment.rotation;
  const attrs =
    attribute("horizontal", alignment.horizontal) +
    attribute("vertical", vertical) +
    attribute("textRotation", rotation) +
    attribute("wrapText", alignment.wrap) +
    attribute("indent", alignment.indent);
  return attrs ? `<alignment${attrs}/>` : "";
}

// Cells are locked and formulas shown by default; only a change is written.
function protectionXml(style: XlsxStyle): string {
  const attrs = attribute("locked", style.locked === false ? false : undefined) + attribute("hidden", style.hide_formula || undefined);
  return attrs ? `<protection${attrs}/>` : "";
}

/** Interns strings in first-use order: the index is the id the XML refers to. */
class Table {
  readonly items: string[] = [];
  private readonly ids = new Map<string, number>();
  constructor(initial: string[]) {
    for (const item of initial) this.id(item);
  }
  id(item: string): number {
    let id = this.ids.get(item);
    if (id === undefined) {
      id = this.items.length;
      this.items.push(item);
      this.ids.set(item, id);
    }
    return id;
  }
}

export interface StyleBook {
  /**
   * The look of a cell with this style. The number format is the first given of `format`
   * (column or cell), the style's `num_format`, and `typeFormat` (the type's default).
   */
  cellStyle(name: string | undefined, format: string | undefined, typeFormat: string | undefined): CellLook;
  /** The style as a differential format for conditional formatting: its dxf index. */
  dxf(name: string): number;
  /** The run properties (`<rPr>`) of a rich-text run in this style. */
  runProperties(name: string | undefined): string;
  /** styles.xml, once every style in use has been asked for. */
  xml(): string;
}

export function createStyleBook(styles: XlsxRequest["styles"]): StyleBook {
  const named = (name: string | undefined): XlsxStyle => (name === undefined ? {} : (styles[name] ?? {}));
  const fonts = new Table([DEFAULT_FONT_XML]);
  const fills = new Table(['<fill><patternFill patternType="none"/></fill>', '<fill><patternFill patternType="gray125"/></fill>']);
  const borders = new Table([borderXml(undefined)]);
  const customFormats = new Map<string, number>();
  const xfs = new Table(['<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>']);
  const dxfs = new Table([]);
  const looks = new Map<string, CellLook>();

  const numFmtId = (code: string): number => {
    const builtin = BUILTIN_NUM_FMTS.get(code);
    if (builtin !== undefined) return builtin;
    let id = customFormats.get(code);
    if (id === undefined) {
      id = FIRST_CUSTOM_NUM_FMT + customFormats.size;
      customFormats.set(code, id);
    }
    return id;
  };

  return {
    cellStyle(name, format, typeFormat) {
      const style = named(name);
      const numFmt = format ?? style.num_format ?? typeFormat;
      const key = `${name ?? ""}\u0000${numFmt ?? ""}`;
      let look = looks.get(key);
      if (!look) {
        const numId = numFmt === undefined ? 0 : numFmtId(numFmt);
        const fontId = hasFont(style) ? fonts.id(`<font>${fontBody(style, true)}<family val="2"/></font>`) : 0;
        const fillId = style.fill !== undefined ? fills.id(`<fill><patternFill patternType="solid"><fgColor rgb="${rgb(style.fill)}"/><bgColor indexed="64"/></patternFill></fill>`) : 0;
        const borderId = borders.id(borderXml(style.border));
        const alignment = alignmentXml(style.alignment);
        const protection = protectionXml(style);
        const applies =
          (numId !== 0 ? ' applyNumberFormat="1"' : "") +
          (fontId !== 0 ? ' applyFont="1"' : "") +
          (fillId !== 0 ? ' applyFill="1"' : "") +
          (borderId !== 0 ? ' applyBorder="1"' : "") +
          (alignment ? ' applyAlignment="1"' : "") +
          (protection ? ' applyProtection="1"' : "");
        const head = `<xf numFmtId="${numId}" fontId="${fontId}" fillId="${fillId}" borderId="${borderId}" xfId="0"${applies}`;
        look = { xf: xfs.id(alignment || protection ? `${head}>${alignment}${protection}</xf>` : `${head}/>`), numFmt };
        looks.set(key, look);
      }
      return look;
    },
    dxf(name) {
      const style = named(name);
      const font = hasFont(style) ? `<font>${fontBody(style, false)}</font>` : "";
      const numFmt = style.num_format !== undefined ? `<numFmt numFmtId="${numFmtId(style.num_format)}" formatCode="${xmlText(style.num_format)}"/>` : "";
      // A differential fill colours by bgColor, unlike a cell fill.
      const fill = style.fill !== undefined ? `<fill><patternFill patternType="solid"><bgColor rgb="${rgb(style.fill)}"/></patternFill></fill>` : "";
      const border = style.border ? borderXml(style.border) : "";
      return dxfs.id(`<dxf>${font}${numFmt}${fill}${alignmentXml(style.alignment)}${border}</dxf>`);
    },
    runProperties(name) {
      const style = named(name);
      const body = fontBody(style, true).replace(/<name /, "<rFont ");
      return `<rPr>${body}</rPr>`;
    },
    xml() {
      const numFmts = [...customFormats].map(([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlText(code)}"/>`).join("");
      const list = (tag: string, items: string[]) => `<${tag} count="${items.length}">${items.join("")}</${tag}>`;
      return (
        XML_DECLARATION +
        '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        (customFormats.size > 0 ? `<numFmts count="${customFormats.size}">${numFmts}</numFmts>` : "") +
        list("fonts", fonts.items) +
        list("fills", fills.items) +
        list("borders", borders.items) +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        list("cellXfs", xfs.items) +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
        list("dxfs", dxfs.items) +
        "</styleSheet>"
      );
    },
  };
}
