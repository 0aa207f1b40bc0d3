// How the console writes numbers people compare: bytes, size changes and money.
import { formatMicros } from "../../contracts/pricing.ts";

const UNITS = ["B", "KB", "MB", "GB"] as const;

/** Decimal units (1 KB = 1000 B), as file managers show them, with the exact count beside the rounded one. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const rounded = unit === 0 ? String(value) : value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0);
  return `${rounded} ${UNITS[unit]}`;
}

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
