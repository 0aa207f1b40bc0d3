// The shape of an RFC 9457 problem on the wire, apart from the catalogue that names every problem:
// the browser URL builder refuses a transform with the same body the edge answers, and must not
// carry the whole catalogue to do it.

export const PROBLEM_TYPE_BASE = "https://pixelpress.dev/problems/";

export interface ProblemEntry {
  status: number;
  title: string;
  description: string;
}

export interface FieldError {
  pointer: string;
  detail: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** A problem's `type`: its slug under the one base, also the address of its documentation page. */
export function problemTypeUri(slug: string): string {
  return PROBLEM_TYPE_BASE + slug;
}

export function entryBody(
  slug: string,
  entry: ProblemEntry,
  detail: string,
  more: { requestId?: string; errors?: FieldError[]; extensions?: Record<string, unknown>; status?: number } = {},
): ProblemBody {
  return {
    ...more.extensions,
    type: problemTypeUri(slug),
    title: entry.title,
    status: more.status ?? entry.status,
    detail,
    ...(more.requestId ? { request_id: more.requestId } : {}),
    ...(more.errors ? { errors: more.errors } : {}),
  };
}
