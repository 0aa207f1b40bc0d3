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
  // An unknown field is reported at its own pointer, not at the object that contains it.
  const errors: FieldError[] = issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys
      ? issue.keys.map((key) => ({ pointer: pointer([...issue.path, key]), detail: `Unknown field \`${key}\`.` }))
      : [{ pointer: pointer(issue.path), detail: issue.message }],
  );
  const count = errors.length;
  return new ProblemError("validation_failed", `${count} field${count === 1 ? " is" : "s are"} invalid.`, { errors });
}
