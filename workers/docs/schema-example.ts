// Builds the example a reader of the OpenAPI document sees for a schema: the explicit `example`
// wherever a schema has one (set with `.openapi({ example })` on the zod schema), otherwise one
// assembled from its parts. Tests parse these examples with the zod schema they came from, so an
// example in the reference is one the API accepts (requests) or could answer (responses).

export type JsonSchema = { [keyword: string]: unknown };

const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2026-11-23T08:30:00.000Z",
  date: "2026-11-23",
  uri: "https://example.com/",
  url: "https://example.com/",
  email: "dev@example.com",
  uuid: "3f2c6a1e-9b7d-4c1a-8e5f-2d4b6a8c0e1f",
};

function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const target = components[ref.replace("#/components/schemas/", "")];
  if (!target) throw new Error(`unresolved $ref ${ref}`);
  return resolve(target, components);
}

function firstType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) {
    const types: unknown[] = type;
    return types.find((t): t is string => typeof t === "string" && t !== "null") ?? "null";
  }
  return typeof type === "string" ? type : undefined;
}

/** True when the schema or something inside it carries an explicit example. */
function hasExplicitExample(schema: JsonSchema, components: Record<string, JsonSchema>, seen = new Set<JsonSchema>()): boolean {
  const s = resolve(schema, components);
  if (seen.has(s)) return false;
  seen.add(s);
  if (s.example !== undefined || s.examples !== undefined) return true;
  const children = [
    ...Object.values((s.properties as Record<string, JsonSchema> | undefined) ?? {}),
    ...(((s.anyOf ?? s.oneOf ?? s.allOf) as JsonSchema[] | undefined) ?? []),
    ...(s.items ? [s.items as JsonSchema] : []),
  ];
  return children.some((child) => hasExplicitExample(child, components, seen));
}

/** `within`: the schemas whose examples are being built around this one, to end a recursive schema. */
export function exampleFromSchema(schema: JsonSchema, components: Record<string, JsonSchema>, within: ReadonlySet<JsonSchema> = new Set()): unknown {
  const s = resolve(schema, components);
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const union = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (union) {
    // A branch that recurs into a schema already being built (a colour space's base colour space)
    // is passed over, so a recursive schema ends at its null branch.
    const branches = union.filter((branch) => {
      const resolved = resolve(branch, components);
      return resolved.type !== "null" && !within.has(resolved);
    });
    const ending = union.find((branch) => resolve(branch, components).type === "null");
    const preferred = branches.find((branch) => hasExplicitExample(branch, components)) ?? branches[0] ?? ending ?? union[0]!;
    return exampleFromSchema(preferred, components, within);
  }
  const inside = new Set(within).add(s);
  if (Array.isArray(s.allOf)) {
    return Object.assign({}, ...s.allOf.map((part) => exampleFromSchema(part as JsonSchema, components, inside)));
  }
  switch (firstType(s) ?? (s.properties ? "object" : undefined)) {
    case "object": {
      const properties = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      const example: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (required.has(name) || hasExplicitExample(property, components)) example[name] = exampleFromSchema(property, components, inside);
      }
      return example;
    }
    case "array": {
      const item = exampleFromSchema((s.items as JsonSchema | undefined) ?? {}, components, inside);
      return Array.from({ length: Math.max(1, Number(s.minItems ?? 1)) }, () => item);
    }
    case "string":
      return FORMAT_EXAMPLES[String(s.format)] ?? "x".repeat(Math.max(1, Number(s.minLength ?? 6)));
    case "integer":
    case "number":
      return Number(s.minimum ?? s.exclusiveMinimum ?? 0) + (s.exclusiveMinimum !== undefined ? 1 : 0);
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return {};
  }
}
