// A sheet's data rows as the writer takes them: how many there are, then the rows in order, a batch
// at a time. Rows in memory come as one batch; rows on the request stream as the stream parses them
// (request-stream.ts), each batch dropped once written.
import type { XlsxRow, XlsxRowCheck } from "../../contracts/xlsx-request.ts";

export interface SheetRows {
  readonly count: number;
  batches(): AsyncIterable<readonly XlsxRow[]> | Iterable<readonly XlsxRow[]>;
}

export function rowsInMemory(rows: readonly XlsxRow[]): SheetRows {
  return { count: rows.length, batches: () => (rows.length > 0 ? [rows] : []) };
}

/**
 * Each row checked as it passes (contracts' XlsxRowCheck), before the writer or its sample sees it;
 * a row that fails is passed on empty, so nothing downstream meets a value unfit for its column (the
 * workbook is then thrown away, the problem raised once every row has been checked).
 */
export async function* checkedBatches(rows: SheetRows, check: XlsxRowCheck): AsyncGenerator<readonly XlsxRow[]> {
  let r = 0;
  for await (const batch of rows.batches()) {
    let checked = batch;
    for (let i = 0; i < batch.length; i++, r++) {
      if (check.check(batch[i]!, r)) continue;
      if (checked === batch) checked = [...batch];
      (checked as XlsxRow[])[i] = [];
    }
    yield checked;
  }
  check.finish();
}

/** The first `size` rows to sample (column widths, shared strings) while every row is still to be written. */
export interface SampledRows {
  sample: readonly XlsxRow[];
  all: AsyncIterable<readonly XlsxRow[]>;
}

export async function sampleAhead(batches: AsyncIterable<readonly XlsxRow[]>, size: number): Promise<SampledRows> {
  const iterator = batches[Symbol.asyncIterator]();
  const ahead: (readonly XlsxRow[])[] = [];
  const sample: XlsxRow[] = [];
  let ended = false;
  while (sample.length < size) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    ahead.push(next.value);
    for (let i = 0; i < next.value.length && sample.length < size; i++) sample.push(next.value[i]!);
  }
  async function* all(): AsyncGenerator<readonly XlsxRow[]> {
    yield* ahead;
    if (ended) return;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  return { sample, all: all() };
}
