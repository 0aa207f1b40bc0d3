// The client refuses a transform with the problem the edge would answer, so a page sees the same
// `transform_invalid` detail and field pointers before any request is made.
import { problemBody, ProblemError, type FieldError } from "../../../contracts/problems/catalogue.ts";
import { PixelPressError } from "../api-error.ts";

export function transformInvalid(errors: FieldError[]): PixelPressError {
  const detail = errors.length === 1 ? errors[0]!.detail : `${errors.length} transform tokens are invalid; see errors`;
  return new PixelPressError(problemBody("transform_invalid", detail, { errors }));
}

/** Runs `check` (the shared parser) and rethrows its ProblemError as the client's error type. */
export function asClientError<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ProblemError) throw new PixelPressError(error.toBody());
    throw error;
  }
}
