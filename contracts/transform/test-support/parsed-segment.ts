// What a token test asks of a transform segment: its canonical form, or the problem the parser
// refuses it with (the first field error, which names the token).
import { ProblemError } from "../../problems/catalogue.ts";
import { canonicalTransform } from "../canonical.ts";
import { parseTransform } from "../tokens.ts";

export const canonical = (segment: string) => canonicalTransform(parseTransform(segment));

/** The first field error of the parser's refusal; throws when the segment is accepted. */
export function refusal(segment: string): { pointer: string; detail: string } | undefined {
  try {
    parseTransform(segment);
  } catch (error) {
    if (error instanceof ProblemError) return error.errors?.[0];
    throw error;
  }
  throw new Error(`"${segment}" was accepted`);
}
