import { UNKNOWN_KEY_SEPARATOR } from "./accepted-forms.ts";
import { ProblemError, type FieldError } from "./catalogue.ts";

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  keys?: string[];
  /** An invalid union's issues, per branch, with paths relative to the union. */
  errors?: Issue[][];
  /** A too_big issue's bound, a too_small issue's. */
  maximum?: number | bigint;
  minimum?: number | bigint;
}

const TARGET_PREFIX: Record<string, string> = { json: "", query: "/query", param: "/path", header: "/headers" };

function escapePointerToken(token: PropertyKey): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * A union of objects that acceptedFormsError cannot name in a sentence ("Invalid input" at the
 * union) is reported as the branch the value came closest to: the one with the fewest invalid
 * fields (the first on a tie), its issues under the union's path, unions within read the same way,
 * when the value has that branch's shape.
 */
function closestBranch(issue: Issue): Issue[] {
  if (issue.code !== "invalid_union" || /^(is|needs) /.test(issue.message) || !issue.errors?.length) return [issue];
  const weight = (branch: Issue[]) => branch.reduce((sum, inner) => sum + (inner.keys?.length ?? 1), 0);
  const closest = issue.errors.reduce((best, branch) => (weight(branch) < weight(best) ? branch : best));
  // A value no branch takes the shape of (a number for an object or a list) stays the union's own issue.
  if (!closest.every((inner) => inner.path.length > 0 || inner.code === "unrecognized_keys")) return [issue];
  return closest.flatMap((inner) => closestBranch({ ...inner, path: [...issue.path, ...inner.path] }));
}

/**
 * A value past several bounds of one field is told the tightest: zod's `int()` adds the safe
 * integer bound beside the schema's own, and `width: 1e308` was told both 9007199254740991 and 16384.
 */
function tightestBounds(issues: Issue[]): Issue[] {
  const samePath = (a: Issue, b: Issue) => a.path.length === b.path.length && a.path.every((token, i) => token === b.path[i]);
  const tighter = (other: Issue, issue: Issue) =>
    (issue.code === "too_big" && Number(other.maximum) < Number(issue.maximum)) || (issue.code === "too_small" && Number(other.minimum) > Number(issue.minimum));
  return issues.filter((issue) => !issues.some((other) => other !== issue && other.code === issue.code && samePath(other, issue) && tighter(other, issue)));
}

/** One JSON pointer per invalid field, into the body for JSON and under /query, /path, /headers otherwise. */
export function validationProblem(issues: readonly Issue[], target: string): ProblemError {
  const prefix = TARGET_PREFIX[target] ?? `/${target}`;
  const pointer = (path: PropertyKey[]) => prefix + path.map((token) => `/${escapePointerToken(token)}`).join("");
  // An unknown field is reported at its own pointer, not at the object that contains it, with the
  // message acceptedFormsError wrote for it (a suggestion of the nearest known field).
  const errors: FieldError[] = tightestBounds(issues.flatMap(closestBranch)).flatMap((issue) => {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : undefined;
    if (keys) {
      const messages = issue.message.split(UNKNOWN_KEY_SEPARATOR);
      return keys.map((key, i) => ({
        pointer: pointer([...issue.path, key]),
        detail: messages.length === keys.length ? messages[i]! : `Unknown field \`${key}\`.`,
      }));
    }
    // acceptedFormsError words a union's message, and a missing field's, as a predicate on the field.
    const field = issue.path.at(-1);
    const predicate = (issue.code === "invalid_union" || issue.code === "invalid_type") && /^(is|needs) /.test(issue.message);
    const detail = predicate ? `\`${String(field ?? target)}\` ${issue.message}.` : issue.message;
    return [{ pointer: pointer(issue.path), detail }];
  });
  const count = new Set(errors.map((error) => error.pointer)).size;
  return new ProblemError("validation_failed", `${count} field${count === 1 ? " is" : "s are"} invalid.`, { errors });
}
