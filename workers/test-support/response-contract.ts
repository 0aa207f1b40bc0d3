// Every reply the edge sends in a test is checked against what /openapi.json declares for that
// path, method and status: the status must be declared, the content type must be one it lists,
// and a JSON body must satisfy its schema. So the published document cannot drift from what the
// service sends without the suite failing.
//
// The schema check is a small JSON Schema (2020-12, as OpenAPI 3.1 uses it) validator over the
// keywords the document uses; workerd forbids generating code at run time, which rules out the
// usual compiling validators. A keyword it does not know fails the check rather than passing it.

type Schema = boolean | SchemaObject;

/** The keywords the validator checks, typed as the document writes them. */
interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  prefixItems?: Schema[];
  items?: Schema;
  required?: string[];
  minProperties?: number;
  maxProperties?: number;
  properties?: Record<string, Schema>;
  propertyNames?: Schema;
  additionalProperties?: Schema;
  /** An annotation, an `x-` extension, or a keyword the validator fails as unsupported. */
  [keyword: string]: unknown;
}

interface MediaType {
  schema?: Schema;
}

interface ResponseObject {
  content?: Record<string, MediaType>;
}

interface Operation {
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

// Keywords that describe and never constrain.
const ANNOTATIONS = new Set(["description", "example", "examples", "title", "default", "deprecated", "format", "readOnly", "writeOnly", "externalDocs", "discriminator"]);
const CHECKED = new Set([
  "type", "properties", "required", "additionalProperties", "items", "prefixItems", "enum", "const",
  "anyOf", "oneOf", "allOf", "$ref", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "minLength", "maxLength", "pattern", "minItems", "maxItems", "propertyNames", "minProperties", "maxProperties",
]);

export interface SchemaError {
  pointer: string;
  message: string;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The errors of `value` against `schema`, refs resolved in `document`; empty when it conforms. */
export function validateSchema(document: OpenApiDocument, schema: Schema, value: unknown, pointer = ""): SchemaError[] {
  if (schema === true) return [];
  if (schema === false) return [{ pointer, message: "no value is allowed here" }];
  const errors: SchemaError[] = [];
  const fail = (message: string) => errors.push({ pointer: pointer || "/", message });
  for (const keyword of Object.keys(schema)) {
    if (!CHECKED.has(keyword) && !ANNOTATIONS.has(keyword) && !keyword.startsWith("x-")) fail(`unsupported schema keyword ${keyword}`);
  }
  const s = schema;
  if (typeof s.$ref === "string") {
    const name = s.$ref.replace(/^#\/components\/schemas\//, "");
    const target = document.components?.schemas?.[name];
    if (target === undefined) fail(`unresolved $ref ${s.$ref}`);
    else errors.push(...validateSchema(document, target, value, pointer));
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((type) => hasType(value, type))) {
      fail(`expected ${types.join(" or ")}, got ${typeOf(value)}`);
      return errors;
    }
  }
  if (s.enum !== undefined && !s.enum.some((option) => deepEqual(option, value))) fail(`expected one of ${JSON.stringify(s.enum)}, got ${JSON.stringify(value)}`);
  if (s.const !== undefined && !deepEqual(s.const, value)) fail(`expected ${JSON.stringify(s.const)}, got ${JSON.stringify(value)}`);
  if (s.allOf) for (const part of s.allOf) errors.push(...validateSchema(document, part, value, pointer));
  if (s.anyOf && !s.anyOf.some((part) => validateSchema(document, part, value, pointer).length === 0)) {
    fail(`matches none of anyOf: ${explainAlternatives(document, s.anyOf, value, pointer)}`);
  }
  if (s.oneOf) {
    const matching = s.oneOf.filter((part) => validateSchema(document, part, value, pointer).length === 0).length;
    if (matching !== 1) fail(`matches ${matching} of oneOf, expected exactly 1: ${explainAlternatives(document, s.oneOf, value, pointer)}`);
  }
  if (typeof value === "number") {
    if (s.minimum !== undefined && value < s.minimum) fail(`${value} is below the minimum ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) fail(`${value} is above the maximum ${s.maximum}`);
    if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) fail(`${value} is not above ${s.exclusiveMinimum}`);
    if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) fail(`${value} is not below ${s.exclusiveMaximum}`);
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (s.minLength !== undefined && length < s.minLength) fail(`shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && length > s.maxLength) fail(`longer than ${s.maxLength}`);
    if (s.pattern !== undefined && !new RegExp(s.pattern, "u").test(value)) fail(`does not match ${s.pattern}`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) fail(`fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems) fail(`more than ${s.maxItems} items`);
    const prefix = s.prefixItems ?? [];
    value.forEach((item, index) => {
      const itemSchema = index < prefix.length ? prefix[index] : s.items;
      if (itemSchema !== undefined) errors.push(...validateSchema(document, itemSchema, item, `${pointer}/${index}`));
    });
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    for (const name of s.required ?? []) if (!(name in object)) fail(`missing required property ${name}`);
    if (s.minProperties !== undefined && keys.length < s.minProperties) fail(`fewer than ${s.minProperties} properties`);
    if (s.maxProperties !== undefined && keys.length > s.maxProperties) fail(`more than ${s.maxProperties} properties`);
    const properties = s.properties ?? {};
    for (const key of keys) {
      const at = `${pointer}/${key}`;
      if (s.propertyNames !== undefined) errors.push(...validateSchema(document, s.propertyNames, key, at));
      if (key in properties) errors.push(...validateSchema(document, properties[key]!, object[key], at));
      else if (s.additionalProperties !== undefined) errors.push(...validateSchema(document, s.additionalProperties, object[key], at));
    }
  }
  return errors;
}

function explainAlternatives(document: OpenApiDocument, alternatives: Schema[], value: unknown, pointer: string): string {
  return alternatives
    .map((part, index) => `[${index}] ${validateSchema(document, part, value, pointer).map((e) => `${e.pointer} ${e.message}`).join("; ") || "ok"}`)
    .join(" | ");
}

// The transform route's trailing `{path}` is documented as one parameter that may hold `/`.
const MULTI_SEGMENT_TAIL = "/{path}";

function templateMatcher(template: string): RegExp {
  const tail = template.endsWith(MULTI_SEGMENT_TAIL) ? "/.+" : "";
  const single = tail ? template.slice(0, -MULTI_SEGMENT_TAIL.length) : template;
  const pattern = single.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, "[^/]+") + tail;
  return new RegExp(`^${pattern}$`);
}

/** The declared operation for a request, literal paths before templated ones. */
function findOperation(document: OpenApiDocument, method: string, path: string): { template: string; operation: Operation } | null {
  const templates = Object.keys(document.paths).sort((a, b) => a.split("{").length - b.split("{").length);
  for (const template of templates) {
    const operation = document.paths[template]![method.toLowerCase()];
    if (operation && templateMatcher(template).test(path)) return { template, operation };
  }
  return null;
}

// What the app answers for a path or method it does not serve; no operation can declare these.
const UNROUTED_PROBLEMS = new Set(["not_found", "method_not_allowed"]);
// The document itself is served beside the operations it describes, not as one of them.
const DOCUMENT_PATH = "/openapi.json";

function mediaTypeMatches(declared: string, actual: string): boolean {
  if (declared === actual || declared === "*/*") return true;
  return declared.endsWith("/*") && actual.startsWith(declared.slice(0, -1));
}

/**
 * Checks one reply against the document; returns what is wrong, or an empty list. The body is
 * read (from a clone) only when the reply is JSON. With `plantedRoutes`, the app under test has
 * routes of its own that no document lists, and their replies are let through.
 */
export async function responseContractErrors(
  document: OpenApiDocument,
  request: { method: string; url: string },
  res: Response,
  options: { plantedRoutes?: boolean } = {},
): Promise<string[]> {
  const path = new URL(request.url).pathname;
  const mediaType = (res.headers.get("Content-Type") ?? "").split(";")[0]!.trim();
  const isJson = mediaType === "application/json" || mediaType === "application/problem+json";
  const body: unknown = isJson ? JSON.parse(await res.clone().text()) : undefined;
  const found = findOperation(document, request.method === "HEAD" ? "GET" : request.method, path);
  const where = `${request.method} ${path} → ${res.status}`;
  if (found === null) {
    if (options.plantedRoutes || path === DOCUMENT_PATH) return [];
    const type = typeof body === "object" && body !== null && "type" in body ? body.type : undefined;
    const slug = typeof type === "string" ? type.split("/").pop() : undefined;
    if (mediaType === "application/problem+json" && slug !== undefined && UNROUTED_PROBLEMS.has(slug)) return [];
    return [`${where}: no operation in /openapi.json serves this path and method`];
  }
  const declared = found.operation.responses[String(res.status)] ?? found.operation.responses[`${String(res.status)[0]}XX`] ?? found.operation.responses.default;
  if (declared === undefined) return [`${where}: status ${res.status} is not declared for ${request.method} ${found.template}`];
  if (request.method === "HEAD" || res.status === 204 || res.status === 304 || !res.body) return [];
  const content = declared.content ?? {};
  const mediaKey = Object.keys(content).find((key) => mediaTypeMatches(key, mediaType));
  if (mediaKey === undefined) return [`${where}: Content-Type ${mediaType || "(none)"} is not declared (declared: ${Object.keys(content).join(", ") || "no body"})`];
  const schema = content[mediaKey]!.schema;
  if (!isJson || schema === undefined) return [];
  return validateSchema(document, schema, body).map((error) => `${where}: ${error.pointer} ${error.message}`);
}
