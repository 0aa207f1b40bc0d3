import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { sourceSchema } from "../envelope.ts";
import { imageOptionsSchema } from "../image-options.ts";
import { acceptedFormsError, nearestKey } from "./accepted-forms.ts";
import { validationProblem } from "./validation-problem.ts";

function details(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input, { error: acceptedFormsError });
  if (result.success) throw new Error("expected the input to be refused");
  return validationProblem(result.error.issues, "json").errors;
}

describe("validation problems name what is accepted", () => {
  it("says a source needs exactly one of its three forms", () => {
    expect(details(z.object({ source: sourceSchema }), { source: {} })).toEqual([
      { pointer: "/source", detail: "`source` needs exactly one of `url`, `base64`, `file_id`." },
    ]);
  });

  it("names quality's range and every auto level", () => {
    const [error] = details(imageOptionsSchema, { quality: "high" }) ?? [];
    expect(error?.pointer).toBe("/quality");
    expect(error?.detail).toMatch(/^`quality` is 1\.\.100 or one of `auto`, `auto:low`, `auto:eco`, `auto:good`, `auto:best`\.$/);
  });

  it("suggests the nearest known field for a typo, and nothing for a stranger", () => {
    expect(details(imageOptionsSchema, { qualty: 80, zzzzzz: 1 })).toEqual([
      { pointer: "/qualty", detail: "Unknown field `qualty`; did you mean `quality`?" },
      { pointer: "/zzzzzz", detail: "Unknown field `zzzzzz`." },
    ]);
  });

  it("tells a number past several bounds the tightest, once, and counts fields, not messages", () => {
    const result = imageOptionsSchema.safeParse({ width: 1e308, height: -1e308 }, { error: acceptedFormsError });
    if (result.success) throw new Error("expected the input to be refused");
    const problem = validationProblem(result.error.issues, "json");
    expect(problem.errors).toEqual([
      { pointer: "/width", detail: "Too big: expected number to be <=16384" },
      { pointer: "/height", detail: "Too small: expected number to be >=1" },
    ]);
    expect(problem.message).toBe("2 fields are invalid.");
    const twice = validationProblem([...result.error.issues, { path: ["width"], message: "is odd", code: "custom" }], "json");
    expect(twice.errors).toHaveLength(3);
    expect(twice.message).toBe("2 fields are invalid.");
  });

  it("leaves a union it cannot put in a sentence to zod's own words", () => {
    const rich = z.union([z.object({ a: z.string(), b: z.string() }), z.array(z.string())]);
    expect(details(z.object({ rich }), { rich: 3 })).toEqual([{ pointer: "/rich", detail: "Invalid input" }]);
  });
});

describe("nearestKey", () => {
  it("finds a typo within a third of the word's length, case aside", () => {
    expect(nearestKey("widht", ["width", "height"])).toBe("width");
    expect(nearestKey("MAX_BYTES", ["max_bytes"])).toBe("max_bytes");
    expect(nearestKey("fit", ["width", "height"])).toBeUndefined();
  });
});
