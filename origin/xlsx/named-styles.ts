// The request's named styles as exceljs style objects. exceljs renders a cell's style to XML
// to find its id unless it has seen that very object before (a WeakMap inside its style
// manager), so every cell with the same look must get the same object: the book memoises.
import type { Borders, Fill, Font, Style } from "exceljs";
import type { XlsxRequest, XlsxStyle } from "../../contracts/xlsx-request.ts";

export type CellStyle = Partial<Style>;

const DEFAULT_FONT = { name: "Calibri", size: 11 } as const;

/** `#RRGGBB` as exceljs's opaque ARGB. */
export function argb(hex: string): string {
  return `FF${hex.slice(1).toUpperCase()}`;
}

// A cell font replaces the default font whole, so it needs a name and size; a differential
// format (conditional formatting) must carry only what changes.
function fontOf(style: XlsxStyle, completeFont: boolean): Partial<Font> | undefined {
  const { bold, italic, underline, strike, color, size, font } = style;
  if ([bold, italic, underline, strike, color, size, font].every((v) => v === undefined)) return undefined;
  const face = completeFont
    ? { name: font ?? DEFAULT_FONT.name, size: size ?? DEFAULT_FONT.size }
    : { ...(font !== undefined && { name: font }), ...(size !== undefined && { size }) };
  return {
    ...face,
    ...(bold !== undefined && { bold }),
    ...(italic !== undefined && { italic }),
    ...(underline !== undefined && { underline }),
    ...(strike !== undefined && { strike }),
    ...(color !== undefined && { color: { argb: argb(color) } }),
  };
}

function bordersOf(border: NonNullable<XlsxStyle["border"]>): Partial<Borders> {
  const edge = { style: border.style, ...(border.color !== undefined && { color: { argb: argb(border.color) } }) };
  return Object.fromEntries(border.sides.map((side) => [side, edge]));
}

function alignmentOf(alignment: NonNullable<XlsxStyle["alignment"]>): CellStyle["alignment"] {
  return {
    ...(alignment.horizontal !== undefined && { horizontal: alignment.horizontal }),
    ...(alignment.vertical !== undefined && { vertical: alignment.vertical }),
    ...(alignment.wrap !== undefined && { wrapText: alignment.wrap }),
    ...(alignment.indent !== undefined && { indent: alignment.indent }),
    ...(alignment.rotation !== undefined && { textRotation: alignment.rotation }),
  };
}

function solidFill(hex: string): Fill {
  // Cell styles colour a solid fill by fgColor, conditional formats (dxf) by bgColor.
  return { type: "pattern", pattern: "solid", fgColor: { argb: argb(hex) }, bgColor: { argb: argb(hex) } };
}

export function toExcelStyle(style: XlsxStyle, numFmt: string | undefined, completeFont = true): CellStyle {
  const font = fontOf(style, completeFont);
  return {
    ...(font && { font }),
    ...(style.fill !== undefined && { fill: solidFill(style.fill) }),
    ...(style.border !== undefined && { border: bordersOf(style.border) }),
    ...(style.alignment !== undefined && { alignment: alignmentOf(style.alignment) }),
    ...(numFmt !== undefined && { numFmt }),
  };
}

export interface StyleBook {
  /**
   * One shared object per (style, number format). The number format is the first given of
   * `format` (column or cell), the style's `num_format`, and `typeFormat` (the type's default).
   */
  cellStyle(name: string | undefined, format: string | undefined, typeFormat: string | undefined): CellStyle;
  /** The style as a differential format for conditional formatting. */
  dxfStyle(name: string): CellStyle;
}

export function createStyleBook(styles: XlsxRequest["styles"]): StyleBook {
  const cellStyles = new Map<string, CellStyle>();
  const dxfStyles = new Map<string, CellStyle>();
  const named = (name: string | undefined): XlsxStyle => (name === undefined ? {} : (styles[name] ?? {}));
  return {
    cellStyle(name, format, typeFormat) {
      const style = named(name);
      const numFmt = format ?? style.num_format ?? typeFormat;
      const key = JSON.stringify([name ?? null, numFmt ?? null]);
      let cached = cellStyles.get(key);
      if (!cached) {
        cached = toExcelStyle(style, numFmt);
        cellStyles.set(key, cached);
      }
      return cached;
    },
    dxfStyle(name) {
      let cached = dxfStyles.get(name);
      if (!cached) {
        const style = named(name);
        cached = toExcelStyle(style, style.num_format, false);
        dxfStyles.set(name, cached);
      }
      return cached;
    },
  };
}
