import { expect } from "vitest";
import { ProblemError } from "../../../contracts/problems/catalogue.ts";

/** Awaits a promise that must reject with a ProblemError and returns it. */
export async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}
