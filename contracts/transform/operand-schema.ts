// The zod schema of an operand (operand.ts): the origin's wire schema is built from the registry's
// operands with it, so a field is checked on the wire by the shape it is declared with. Kept apart
// from operand.ts, which the browser URL builder reaches without zod.
import { z } from "@hono/zod-openapi";
import type { Operand, OperandMap, OperandShape } from "./operand.ts";

function shapeSchema(shape: OperandShape): z.ZodType {
  switch (shape.kind) {
    case "integer":
      return z.number().int().min(shape.range.min).max(shape.range.max);
    case "number":
      return z.number().min(shape.range.min).max(shape.range.max);
    case "choice": {
      const names = shape.values.filter((value) => typeof value === "string");
      if (names.length === shape.values.length) return z.enum(names);
      return z.union(shape.values.map((value) => z.literal(value)));
    }
    case "pattern":
      return z.string().regex(shape.pattern);
    case "flag":
      return z.boolean();
    case "true":
      return z.literal(true);
    case "record":
      return z.object(operandSchemas(shape.fields)).strict();
    case "either":
      return z.union(shape.options.map(operandSchema));
  }
}

export function operandSchema(operand: Operand<unknown>): z.ZodType {
  const schema = shapeSchema(operand.shape);
  if (operand.presence === "optional") return schema.optional();
  if (operand.presence === "defaulted") return schema.default(operand.fallback);
  return schema;
}

/** One schema per field, in the map's order. */
export function operandSchemas(operands: OperandMap): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(operands).map(([field, operand]) => [field, operandSchema(operand)]));
}
