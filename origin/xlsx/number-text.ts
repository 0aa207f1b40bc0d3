// A cell's number as the shortest text that reads back as the same double, as String() gives it.
// String() of a non-integer runs V8's shortest-digits search, which costs several times the rest
// of the cell (about 0.5 µs for a value like 1373.1). Most spreadsheet numbers have a few decimal
// places, so those are found directly. Below 1e9, m stays under 2^53 and a millionth is wider
// than the value's ulp, so at most one integer m has m / 10^6 equal to the value; that division
// is correctly rounded, so the equality is exact. A value with fewer places also matches at six
// (m / 10^k is the same rational as (m * 10^(6-k)) / 10^6), so the six-place match, with its
// trailing zeros dropped, gives the shortest digits, and a value without one goes to String().
const MILLION = 1_000_000;
const DIRECT_LIMIT = 1e9;

export function numberText(value: number): string {
  if (Number.isInteger(value) || !(Math.abs(value) < DIRECT_LIMIT)) return String(value);
  // The product carries its own rounding, so the nearest integer may be one off the true digits.
  const near = Math.round(value * MILLION);
  const m = near / MILLION === value ? near : (near - 1) / MILLION === value ? near - 1 : (near + 1) / MILLION === value ? near + 1 : undefined;
  if (m === undefined) return String(value);
  let digits = m < 0 ? -m : m;
  let places = 6;
  let scale = MILLION;
  while (digits % 10 === 0) {
    digits /= 10;
    places--;
    scale /= 10;
  }
  const whole = Math.floor(digits / scale);
  const fraction = String(digits - whole * scale).padStart(places, "0");
  return `${m < 0 ? "-" : ""}${whole}.${fraction}`;
}
