// The edge's transform parser: the reading of read-transform.ts, refused as `transform_invalid`.
import { ProblemError } from "../problems/catalogue.ts";
import { transformInvalidDetail } from "../problems/transform-invalid.ts";
import type { TransformSpec } from "./registry.ts";
import { readTransform } from "./read-transform.ts";

// Throws `transform_invalid` listing every bad token (pointer `/transform/<token>`).
export function parseTransform(segment: string): TransformSpec {
  const reading = readTransform(segment);
  if (reading.errors) throw new ProblemError("transform_invalid", transformInvalidDetail(reading.errors), { errors: reading.errors });
  return reading.spec;
}
