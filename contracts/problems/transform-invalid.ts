// `transform_invalid`, declared here for the catalogue and for the browser URL builder alike, so the
// builder's refusal reads exactly as the edge's without importing the catalogue.
import { entryBody, type FieldError, type ProblemBody, type ProblemEntry } from "./problem-body.ts";

export const transformInvalidEntry = {
  status: 400,
  title: "Invalid transform",
  description:
    "The URL transform has an unknown, duplicated, empty or out-of-range token; `errors` points at each one as `/transform/<token>`. Never cached, never billed.",
} as const satisfies ProblemEntry;

/** One detail for a list of bad tokens: the token's own when there is one, a count otherwise. */
export function transformInvalidDetail(errors: readonly FieldError[]): string {
  const first = errors[0]?.detail ?? "invalid transform";
  return errors.length === 1 ? first : `${errors.length} transform tokens are invalid; see errors`;
}

export function transformInvalidBody(errors: FieldError[]): ProblemBody {
  return entryBody("transform_invalid", transformInvalidEntry, transformInvalidDetail(errors), { errors });
}
