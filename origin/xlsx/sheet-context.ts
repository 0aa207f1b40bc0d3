// What writing one sheet shares with the workbook around it.
import type { StyleBook } from "./named-styles.ts";
import type { PasswordBook } from "./protection.ts";
import type { SharedStrings, SharedStringsMode } from "./shared-strings.ts";
import type { ZipWriter } from "./zip-writer.ts";
import type { ZonedClock } from "./zoned-date.ts";

/** Numbers of parts that are numbered across the workbook, and the content type of each part written. */
export interface PackageParts {
  tables: number;
  charts: number;
  drawings: number;
  images: number;
  comments: number;
  /** VML shape-id blocks claimed so far (each sheet's notes take the next ones). */
  vmlBlocks: number;
  contentTypes: [string, string][];
}

export interface SheetContext {
  zip: ZipWriter;
  parts: PackageParts;
  sheetNames: readonly string[];
  styles: StyleBook;
  clock: ZonedClock;
  strings: SharedStrings;
  sharedStrings: SharedStringsMode;
  passwords: PasswordBook;
}
