import { base62Digit, encodeBase62, randomBase62 } from "./base62.ts";

export type IdPrefix = "acct" | "key" | "req" | "file" | "job" | "msg" | "orig";

const RANDOM_CHARACTERS = 20;

/** Public identifiers: a type prefix and 20 random base62 characters (~119 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(RANDOM_CHARACTERS)}`;
}

/** How many places one base62 digit can name. */
export const MAX_PLACES = 62;

/**
 * An id that names which of up to MAX_PLACES places holds its thing (one of its account's shards),
 * so the place never has to be looked up and never moves: the prefix, the place as one base62
 * digit, then 20 random characters.
 */
export function newPlacedId(prefix: IdPrefix, place: number): string {
  return `${prefix}_${encodeBase62(place, 1)}${randomBase62(RANDOM_CHARACTERS)}`;
}

/** The place an id names; 0 for an id of newId's form (made before ids named a place) and for anything else. */
export function placeOfId(prefix: IdPrefix, id: string): number {
  const start = prefix.length + 1;
  if (!id.startsWith(`${prefix}_`) || id.length !== start + 1 + RANDOM_CHARACTERS) return 0;
  return Math.max(0, base62Digit(id[start]!));
}
