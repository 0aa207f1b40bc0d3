// The client refuses a transform with the problem the edge would answer, so a page sees the same
// `transform_invalid` detail and field pointers before any request is made.
import type { FieldError } from "../../../contracts/problems/problem-body.ts";
import { transformInvalidBody } from "../../../contracts/problems/transform-invalid.ts";
import { readTransform } from "../../../contracts/transform/read-transform.ts";
import type { TransformSpec } from "../../../contracts/transform/registry.ts";
import { PixelPressError } from "../api-error.ts";

export function transformInvalid(errors: FieldError[]): PixelPressError {
  return new PixelPressError(transformInvalidBody(errors));
}

/** The edge's reading of a transform segment, refused as the client's error type. */
export function clientSpecOf(segment: string): TransformSpec {
  const reading = readTransform(segment);
  if (reading.errors) throw transformInvalid(reading.errors);
  return reading.spec;
}
