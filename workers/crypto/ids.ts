import { randomBase62 } from "./base62.ts";

export type IdPrefix = "acct" | "key" | "req" | "file" | "job" | "msg" | "orig";

/** Public identifiers: a type prefix and 20 random base62 characters (~119 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
