// Every JSON route's validation errors go through one reader (contracts/problems/validation-problem.ts):
// a misspelt field is named at its own pointer with the field it likely meant, and a missing
// required one at its pointer, saying it is required. The routes come from the served OpenAPI
// document, so a route added later is swept without being listed here.
import { describe, expect, it } from "vitest";
import { api, problemOf, seedCaller } from "./test-support/api.ts";

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  example?: unknown;
}

interface Operation {
  parameters?: { in: string; name: string; schema?: JsonSchema; example?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const document = await (await api("/openapi.json")).json<Document>();

function resolved(schema: JsonSchema): JsonSchema {
  if (schema.$ref === undefined) return schema;
  return resolved(document.components!.schemas![schema.$ref.replace("#/components/schemas/", "")]!);
}

/** The object a body takes: the schema itself, an extension's parts merged, or a union's first branch (the one a body with none of the fields is read as). */
function bodyObject(schema: JsonSchema): JsonSchema {
  const plain = resolved(schema);
  if (plain.allOf !== undefined) {
    const parts = plain.allOf.map(bodyObject);
    const properties: Record<string, JsonSchema> = Object.assign({}, ...parts.map((part) => part.properties ?? {})) as Record<string, JsonSchema>;
    return { properties, required: parts.flatMap((part) => part.required ?? []) };
  }
  const branches = plain.oneOf ?? plain.anyOf;
  return branches === undefined ? plain : bodyObject(branches[0]!);
}

/** A path with its parameters filled from their examples (a placeholder where none is given). */
function concrete(path: string, operation: Operation): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters?.find((candidate) => candidate.in === "path" && candidate.name === name);
    const example = parameter?.example ?? parameter?.schema?.example;
    return encodeURIComponent(typeof example === "string" ? example : `${name}_x`);
  });
}

/** A misspelling of `key` one swap of neighbours away, which the reader's nearest-key guess must recover. */
function misspelt(key: string): string {
  const at = key.length > 2 ? 1 : 0;
  return `${key.slice(0, at)}${key[at + 1]}${key[at]}${key.slice(at + 2)}`;
}

const jsonRoutes = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).flatMap(([method, operation]) => {
    const schema = operation.requestBody?.content?.["application/json"]?.schema;
    if (schema === undefined) return [];
    const body = bodyObject(schema);
    return [{ name: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path: concrete(path, operation), body }];
  }),
);

describe("validation errors on every JSON route", () => {
  it("finds the JSON routes in the served document", () => {
    expect(jsonRoutes.map((route) => route.name)).toEqual(expect.arrayContaining(["POST /v1/origins", "POST /v1/image/optimize", "POST /v1/keys", "POST /v1/xlsx/generate"]));
  });

  it.each(jsonRoutes.filter((route) => Object.keys(route.body.properties ?? {}).some((key) => key.length > 1)))(
    "$name: a misspelt field is named at its pointer, with the field it likely meant",
    async ({ method, path, body }) => {
      const caller = await seedCaller();
      const field = Object.keys(body.properties!).find((key) => key.length > 1)!;
      const wrong = misspelt(field);
      const problem = await problemOf(await api(path, { key: caller, method, json: { [wrong]: 1 } }));
      expect(problem.status).toBe(400);
      expect(problem.errors).toContainEqual({ pointer: `/${wrong}`, detail: `Unknown field \`${wrong}\`; did you mean \`${field}\`?` });
      for (const error of problem.errors!) expect(error.detail, error.pointer).not.toBe("Invalid input");
    },
  );

  it.each(jsonRoutes.filter((route) => (route.body.required ?? []).length > 0))(
    "$name: a missing required field is named at its pointer, saying it is required",
    async ({ method, path, body }) => {
      const caller = await seedCaller();
      const problem = await problemOf(await api(path, { key: caller, method, json: {} }));
      expect(problem.status).toBe(400);
      const field = body.required![0]!;
      expect(problem.errors?.find((error) => error.pointer === `/${field}`)?.detail).toMatch(new RegExp(`^\`${field}\` is required`));
      for (const error of problem.errors!) expect(error.pointer, error.detail).not.toBe("");
    },
  );

  it("reads a batch's per-image options, checked after the body, the same way", async () => {
    const caller = await seedCaller();
    const source = { base64: "AA==" };
    const problem = await problemOf(await api("/v1/image/batch", { key: caller, json: { images: [{ ref: "x", source }], per_image_options: { x: { widht: 10 } } } }));
    expect(problem.errors).toEqual([{ pointer: "/per_image_options/x/widht", detail: "Unknown field `widht`; did you mean `width`?" }]);
  });
});
