// The value grammars a token declaration parses with: each throws TokenError with the sentence
// the parser puts after the token's prefix (`w_ must be a whole number from 1 to 8192`).
import { MAX_FRACTION_DIGITS } from "./token-values.ts";

export class TokenError extends Error {}

const INTEGER = /^\d{1,6}$/;
const SIGNED_INTEGER = /^-?\d{1,6}$/;
const DECIMAL = new RegExp(`^\\d{1,4}(\\.\\d{1,${MAX_FRACTION_DIGITS}})?$`);

export function isIntegerSpelling(value: string): boolean {
  return INTEGER.test(value);
}

export function integerIn(value: string, range: { min: number; max: number }): number {
  const n = INTEGER.test(value) ? Number(value) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    throw new TokenError(`must be a whole number from ${range.min} to ${range.max}`);
  }
  return n;
}

/** A whole number that may be negative (`br_-20`). */
export function signedIntegerIn(value: string, range: { min: number; max: number }): number {
  const n = SIGNED_INTEGER.test(value) ? Number(value) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    throw new TokenError(`must be a whole number from ${range.min} to ${range.max}`);
  }
  // -0 is 0.
  return n + 0;
}

export function decimalIn(value: string, range: { min: number; max: number }): number {
  const n = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    throw new TokenError(`must be a number from ${range.min} to ${range.max} with at most ${MAX_FRACTION_DIGITS} decimals`);
  }
  return n;
}

export function oneOf<T extends string>(value: string, values: readonly T[]): T {
  if (!(values as readonly string[]).includes(value)) {
    throw new TokenError(`must be one of ${values.join(", ")}`);
  }
  return value as T;
}

export function matching(value: string, pattern: RegExp, expected: string): string {
  if (!pattern.test(value)) throw new TokenError(`must be ${expected}`);
  return value;
}

/** Integers joined by `x` (`crop_10x20x300x200`), each in its range; `expected` says what they are. */
export function integersIn(value: string, ranges: readonly { min: number; max: number }[], expected: string): number[] {
  const parts = value.split("x");
  if (parts.length !== ranges.length) throw new TokenError(`must be ${expected}`);
  try {
    return parts.map((part, i) => integerIn(part, ranges[i]!));
  } catch (error) {
    if (error instanceof TokenError) throw new TokenError(`must be ${expected}`);
    throw error;
  }
}
