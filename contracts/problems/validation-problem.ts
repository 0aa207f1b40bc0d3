import { UNKNOWN_KEY_SEPARATOR } from "./accepted-forms.ts";
import { ProblemError, type FieldError } from "./catalogue.ts";

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  keys?: string[];
}

const TARGET_PREFIX: Record<string, string> = { json: "", query: "/query", param: "/path", header: "/headers" };

function escapePointerToken(token: PropertyKey): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** One JSON pointer per invalid field, into the body for JSON and under /query, /path, /headers otherwise. */
export function validationProblem(issues: readonly Issue[], target: string): ProblemError {
  const prefix = TARGET_PREFIX[target] ?? `/${target}`;
  const pointer = (path: PropertyKey[]) => prefix + path.map((token) => `/${escapePointerToken(token)}`).join("");
  // An unknown field is reported at its own pointer, not at the object that contains it, with the
  // message acceptedFormsError wrote for it (a suggestion of the nearest known field).
  const errors: FieldError[] = issues.flatMap((issue) => {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : undefined;
    if (keys) {
      const messages = issue.message.split(UNKNOWN_KEY_SEPARATOR);
      return keys.map((key, i) => ({
        pointer: pointer([...issue.path, key]),
        detail: messages.length === keys.length ? messages[i]! : `Unknown field \`${key}\`.`,
      }));
    }
    // acceptedFormsError words a union's message as a predicate on the field.
    const field = issue.path.at(-1);
    const detail = issue.code === "invalid_union" && /^(is|needs) /.test(issue.message) ? `\`${String(field ?? target)}\` ${issue.message}.` : issue.message;
    return [{ pointer: pointer(issue.path), detail }];
  });
  const count = errors.length;
  return new ProblemError("validation_failed", `${count} field${count === 1 ? " is" : "s are"} invalid.`, { errors });
}
