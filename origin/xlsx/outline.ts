// Outline levels and hidden rows and columns. Rows are written in ascending order, so the
// row outline is a cursor over the sorted spans; a row inside a span that holds no cells is
// still written (empty) so its level and visibility are kept.
import { parseColumnSpan, parseRowSpan, type Span } from "../../contracts/xlsx-a1.ts";
import type { XlsxOutline } from "../../contracts/xlsx-sheet-options.ts";

interface Level extends Span {
  attributes: string;
}

function levels(entries: XlsxOutline["rows"], parse: (ref: string) => Span): Level[] {
  return entries
    .map((entry) => ({ ...parse(entry.range), attributes: (entry.hidden ? ' hidden="1"' : "") + (entry.level > 0 ? ` outlineLevel="${entry.level}"` : "") }))
    .sort((a, b) => a.first - b.first);
}

export class RowOutline {
  private readonly spans: Level[];
  private span = 0;
  /** Rows before this one have been written or skipped. */
  private next = 1;
  readonly maxLevel: number;

  constructor(outline: XlsxOutline) {
    this.spans = levels(outline.rows, parseRowSpan);
    this.maxLevel = Math.max(0, ...outline.rows.map((entry) => entry.level));
  }

  get empty(): boolean {
    return this.spans.length === 0;
  }

  private levelOf(row: number): Level | undefined {
    while (this.span < this.spans.length && this.spans[this.span]!.last < row) this.span++;
    const level = this.spans[this.span];
    return level && level.first <= row ? level : undefined;
  }

  /** The attributes of a row about to be written (` hidden="1" outlineLevel="2"` or empty). */
  attributes(row: number): string {
    this.next = row + 1;
    return this.levelOf(row)?.attributes ?? "";
  }

  /** Empty outlined rows before `row` that no cell brought, as `<row>` elements. */
  *rowsBefore(row: number): Generator<string> {
    while (this.span < this.spans.length) {
      const level = this.spans[this.span]!;
      const from = Math.max(this.next, level.first);
      const to = Math.min(row - 1, level.last);
      for (let r = from; r <= to; r++) yield `<row r="${r}"${level.attributes}/>`;
      if (level.last >= row) break;
      this.span++;
    }
    if (row > this.next) this.next = row;
  }
}

/** The outline attributes of columns 1..`count`, and `<col>` elements for outlined columns past them. */
export function columnOutline(outline: XlsxOutline, count: number): { attributes: string[]; beyond: string; maxLevel: number } {
  const attributes: string[] = Array.from({ length: count }, () => "");
  let beyond = "";
  for (const level of levels(outline.columns, parseColumnSpan)) {
    for (let c = level.first; c <= Math.min(level.last, count); c++) attributes[c - 1] = level.attributes;
    if (level.last > count) beyond += `<col min="${Math.max(level.first, count + 1)}" max="${level.last}" width="9.140625"${level.attributes}/>`;
  }
  return { attributes, beyond, maxLevel: Math.max(0, ...outline.columns.map((entry) => entry.level)) };
}
