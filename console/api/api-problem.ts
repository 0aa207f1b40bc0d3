// What the console shows when a call fails: the RFC 9457 problem's title and detail, never a stack.

export interface FieldProblem {
  pointer: string;
  detail: string;
}

export class ApiProblem extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  /** A validation problem's `errors`: each field refused, by JSON pointer. */
  readonly fields: FieldProblem[];

  constructor(status: number, title: string, detail: string | undefined, fields: FieldProblem[] = []) {
    super(detail === undefined ? title : `${title}: ${detail}`);
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.fields = fields;
  }
}

function fieldProblems(errors: unknown): FieldProblem[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((error: { pointer?: unknown; detail?: unknown }) =>
    typeof error?.pointer === "string" && typeof error.detail === "string" ? [{ pointer: error.pointer, detail: error.detail }] : [],
  );
}

/** The problem a failed response carries, or one named by its status when the body is not a problem. */
export async function problemOf(response: Response): Promise<ApiProblem> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { title?: unknown; detail?: unknown; errors?: unknown };
    if (typeof body.title === "string") {
      return new ApiProblem(response.status, body.title, typeof body.detail === "string" ? body.detail : undefined, fieldProblems(body.errors));
    }
  } catch {
    // Not JSON: a proxy's page or an empty body; the status is all there is to say.
  }
  return new ApiProblem(response.status, `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`, undefined);
}

/** Anything a call can throw, as a problem to show. */
export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  return new ApiProblem(0, "The service did not answer", error instanceof Error ? error.message : String(error));
}
