// How the console writes numbers people compare: size changes and money (bytes: contracts/byte-size.ts).
import { formatMicros } from "../../contracts/pricing.ts";

/** output / original as the change a person reads: "82.4% smaller", "3.0% larger", "same size". */
export function formatSizeChange(ratio: number): string {
  if (ratio === 1) return "same size";
  const percent = Math.abs(1 - ratio) * 100;
  return `${percent.toFixed(1)}% ${ratio < 1 ? "smaller" : "larger"}`;
}

/** Integer micro-dollars as dollars, every micro shown: the ledger's own precision. */
export function formatCost(micros: number): string {
  return formatMicros(micros);
}
