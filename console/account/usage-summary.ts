// The month's line on the Account section: every call the ledger counts, with the ones that cost
// nothing (pdf.analyze, an output no smaller than its source) told apart from those that were
// charged. A call is not a charge.
import { formatCost } from "../ui/format.ts";

export interface OperationUsage {
  operation: string;
  count: number;
  micros: number;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "12 calls (4 free: pdf.analyze), $0.0160". Free are the operations that cost $0 in all. */
export function monthUsageLine(rows: OperationUsage[], micros: number): string {
  const calls = rows.reduce((sum, row) => sum + row.count, 0);
  const free = rows.filter((row) => row.micros === 0 && row.count > 0);
  const freeCalls = free.reduce((sum, row) => sum + row.count, 0);
  const freeNote = freeCalls === 0 ? "" : ` (${freeCalls} free: ${free.map((row) => row.operation).join(", ")})`;
  return `${plural(calls, "call", "calls")}${freeNote}, ${formatCost(micros)}`;
}
