// exceljs merges cells through the rows that hold them, and a streamed row cannot change
// once committed. So each merge is applied when its last row has been filled, and the rows
// it spans stay uncommitted until then (the contract caps a merge's height).
import { parseA1Range, type CellRange } from "../../contracts/xlsx-request.ts";

export interface MergePlan {
  /** Rows that must be visited even without content, because a merge ends there. */
  lastRows: number[];
  /** Merges whose last row is this one. */
  endingAt(row: number): CellRange[];
  /** Whether a merge that started at or above this row ends below it. */
  holds(row: number): boolean;
}

export function createMergePlan(merges: readonly string[]): MergePlan {
  const ranges = merges.map(parseA1Range).sort((a, b) => a.top - b.top);
  const byLastRow = new Map<number, CellRange[]>();
  for (const range of ranges) byLastRow.set(range.bottom, [...(byLastRow.get(range.bottom) ?? []), range]);
  let started = 0;
  let lowestStartedBottom = 0;
  return {
    lastRows: [...byLastRow.keys()].sort((a, b) => a - b),
    endingAt: (row) => byLastRow.get(row) ?? [],
    // Rows are asked about in increasing order, so the started merges only grow.
    holds(row) {
      while (started < ranges.length && ranges[started]!.top <= row) {
        lowestStartedBottom = Math.max(lowestStartedBottom, ranges[started]!.bottom);
        started++;
      }
      return lowestStartedBottom > row;
    },
  };
}
