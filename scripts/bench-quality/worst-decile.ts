/** The score the worst 10% of images reach: the 10th percentile by nearest rank (ceil(n/10)-th lowest). */
export function worstDecile(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("no values");
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 10) - 1]!;
}
