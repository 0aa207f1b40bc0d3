// How every part of the product writes a byte count for people: decimal SI units (1 kB = 1000 B),
// as file managers show them, about three significant figures. The console and the CLI both use it,
// so the same file is the same size wherever it is read.

const UNITS = ["B", "kB", "MB", "GB"] as const;

export function formatByteSize(bytes: number): string {
  const sign = bytes < 0 ? "-" : "";
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const rounded = unit === 0 ? String(value) : value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0);
  return `${sign}${rounded} ${UNITS[unit]}`;
}
