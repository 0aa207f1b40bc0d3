// /v1/usage?group_by=day_operation rows laid out for a chart: every day of the period in order
// (days without charges included, as empty bars), and per day each operation's count and spend.

export interface DayOperationRow {
  day: string;
  operation: string;
  count: number;
  micros: number;
}

export type Measure = "count" | "micros";

export interface UsageSeries {
  days: string[];
  /** Operations that appear in the period, in the order given. */
  operations: string[];
  /** days[i]'s value per operation. */
  values: Map<string, Record<string, { count: number; micros: number }>>;
  max: Record<Measure, number>;
}

const DAY_MS = 86_400_000;

/** The `count` UTC days ending on `lastDay` (YYYY-MM-DD), oldest first. */
export function daysEnding(lastDay: string, count: number): string[] {
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

export function usageSeries(rows: readonly DayOperationRow[], days: readonly string[], operationOrder: readonly string[]): UsageSeries {
  const values = new Map<string, Record<string, { count: number; micros: number }>>(days.map((day) => [day, {}]));
  for (const row of rows) {
    const day = values.get(row.day);
    if (day) day[row.operation] = { count: row.count, micros: row.micros };
  }
  const seen = new Set(rows.filter((row) => values.has(row.day)).map((row) => row.operation));
  const known = operationOrder.filter((operation) => seen.has(operation));
  const operations = [...known, ...[...seen].filter((operation) => !operationOrder.includes(operation)).sort()];
  const total = (day: Record<string, { count: number; micros: number }>, measure: Measure) => Object.values(day).reduce((sum, value) => sum + value[measure], 0);
  const max = {
    count: Math.max(0, ...[...values.values()].map((day) => total(day, "count"))),
    micros: Math.max(0, ...[...values.values()].map((day) => total(day, "micros"))),
  };
  return { days: [...days], operations, values, max };
}
