/** An RFC 9457 problem the API answered with, or a non-JSON failure turned into one. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id?: string;
  errors?: { pointer: string; detail: string }[];
  [extension: string]: unknown;
}

export class PixelPressError extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.name = "PixelPressError";
    this.problem = problem;
  }

  get status(): number {
    return this.problem.status;
  }
}

export function problemOf(error: unknown, response: Response): Problem {
  if (typeof error === "object" && error !== null && "type" in error && "status" in error) return error as Problem;
  return { type: "about:blank", title: response.statusText || "HTTP error", status: response.status, detail: typeof error === "string" ? error : JSON.stringify(error) };
}
