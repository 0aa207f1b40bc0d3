// The shared-strings table. A string column whose sampled values repeat is written by index
// (smaller XML, less to compress); one of mostly distinct values is written inline, where a
// table would only add a lookup and memory. The table is capped so a huge workbook of
// distinct text still writes in flat memory: past the cap, new strings go inline.
import { textElement, XML_DECLARATION } from "./xml-text.ts";

export type SharedStringsMode = "auto" | "always" | "never";

/** Distinct strings the table holds at most (and their characters), whatever the mode. */
export const SHARED_STRINGS_MAX_ENTRIES = 100_000;
export const SHARED_STRINGS_MAX_CHARS = 8_000_000;
/** In `auto`, a column shares its strings when its sample has at most this share of distinct values. */
export const SHARED_DISTINCT_RATIO = 0.5;

export class SharedStrings {
  private readonly ids = new Map<string, number>();
  private chars = 0;
  /** String cells written by index, for the table's `count`. */
  references = 0;

  /** The string's index, or undefined when the table is full and the string is new. */
  index(text: string): number | undefined {
    let id = this.ids.get(text);
    if (id === undefined) {
      if (this.ids.size >= SHARED_STRINGS_MAX_ENTRIES || this.chars + text.length > SHARED_STRINGS_MAX_CHARS) return undefined;
      id = this.ids.size;
      this.ids.set(text, id);
      this.chars += text.length;
    }
    this.references++;
    return id;
  }

  get size(): number {
    return this.ids.size;
  }

  *xml(): Generator<string> {
    yield `${XML_DECLARATION}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${this.references}" uniqueCount="${this.ids.size}">`;
    for (const text of this.ids.keys()) yield `<si>${textElement(text)}</si>`;
    yield "</sst>";
  }
}

/** Whether a column shares its strings, judged from a sample of its values. */
export function sharesStrings(mode: SharedStringsMode, sample: Iterable<unknown>): boolean {
  if (mode !== "auto") return mode === "always";
  const distinct = new Set<string>();
  let strings = 0;
  for (const value of sample) {
    if (typeof value !== "string") continue;
    strings++;
    distinct.add(value);
  }
  return strings > 0 && distinct.size <= strings * SHARED_DISTINCT_RATIO;
}
