// Fixed-width columns for the bench's tables.
export interface Column {
  header: string;
  width: number;
  align?: "left" | "right";
}

export function row(columns: Column[], cells: string[]): string {
  return columns
    .map((column, index) => {
      const cell = cells[index] ?? "";
      return column.align === "left" ? cell.padEnd(column.width) : cell.padStart(column.width);
    })
    .join("  ")
    .trimEnd();
}

export function header(columns: Column[]): string {
  return row(columns, columns.map((column) => column.header));
}

export const bytes = (n: number) => n.toLocaleString("en-US");
export const fixed = (n: number, digits: number) => n.toFixed(digits);
export const ms = (n: number) => Math.round(n).toLocaleString("en-US");
