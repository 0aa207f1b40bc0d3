// What names one derivative, and how its format class is spelled where it is stored. The class
// is a union in the type; the spelling on disk is the one derivatives were billed under from the
// start ("" for no class), because the ledger bills a derivative once ever by a key built from it:
// a new spelling would find no stored row, no R2 object and no charge, and bill every derivative
// again.
import type { FormatClass } from "../../contracts/transform/negotiate.ts";
import type { StoredFormatClass } from "../db/schema.ts";

export interface DerivativeIdentity {
  accountId: string;
  // The file, or for an origin path the version of its original (workers/origins/origin-source-id.ts).
  fileId: string;
  canonical: string;
  /** f_auto's negotiated class; null when the transform names its format or keeps the source's. */
  formatClass: FormatClass | null;
}

export function storedFormatClass(formatClass: FormatClass | null): StoredFormatClass {
  return formatClass ?? "";
}

export function formatClassOf(stored: StoredFormatClass): FormatClass | null {
  return stored === "" ? null : stored;
}
