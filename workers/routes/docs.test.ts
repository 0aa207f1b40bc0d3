import type { ZodType } from "zod";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { problemCatalogue, problemTypeUri, type ProblemType } from "../../contracts/problems/catalogue.ts";
import { PROBLEMS_PATH } from "../docs/problem-pages.ts";
import { SCALAR_BUNDLE_PATH } from "../docs/scalar-bundle.ts";
import { exampleFromSchema, type JsonSchema } from "../docs/schema-example.ts";
import { openApiDocument } from "../openapi/document.ts";
import { api, problemOf } from "../test-support/api.ts";

interface MediaType {
  schema: JsonSchema;
  example?: unknown;
}
interface Operation {
  summary?: string;
  description?: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
interface RouteDefinition {
  method: string;
  path: string;
  request?: { body?: { content: Record<string, { schema: ZodType }> } };
  responses: Record<string, { content?: Record<string, { schema: ZodType }> }>;
}

const app = createApp();
const spec = app.getOpenAPI31Document(openApiDocument) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};
const routes = (app.openAPIRegistry.definitions as { type: string; route?: RouteDefinition }[])
  .filter((definition) => definition.type === "route")
  .map((definition) => definition.route!);

function operationOf(route: RouteDefinition): Operation {
  return spec.paths[route.path]![route.method]!;
}

/** Every JSON example the reference shows, paired with the zod schema that validates that body. */
function documentedExamples() {
  const examples: { where: string; example: unknown; schema: ZodType }[] = [];
  for (const route of routes) {
    const operation = operationOf(route);
    const exampleOf = (media: MediaType) => media.example ?? exampleFromSchema(media.schema, spec.components.schemas);
    const body = route.request?.body?.content["application/json"];
    if (body) examples.push({ where: `${route.method} ${route.path} request`, example: exampleOf(operation.requestBody!.content["application/json"]!), schema: body.schema });
    for (const [status, response] of Object.entries(route.responses)) {
      const json = response.content?.["application/json"];
      if (json) examples.push({ where: `${route.method} ${route.path} ${status}`, example: exampleOf(operation.responses[status]!.content!["application/json"]!), schema: json.schema });
    }
  }
  return examples;
}

describe("API reference", () => {
  it("serves the Scalar reference at /docs, unauthenticated, wired to /openapi.json and bearer auth", async () => {
    const res = await api("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const page = await res.text();
    // The script comes from this service, never from a CDN: the page works offline.
    expect(page).toContain(`src="${SCALAR_BUNDLE_PATH}"`);
    expect([...page.matchAll(/src="([^"]*)"/g)].map((m) => m[1])).toEqual([SCALAR_BUNDLE_PATH]);
    expect(page).toContain("/openapi.json");
    expect(page).toContain("bearerAuth");
  });

  it("gives every operation a summary", () => {
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
      }
    }
  });

  it("shows, for every JSON request and response, an example that its own zod schema accepts", () => {
    const examples = documentedExamples();
    expect(examples.length).toBeGreaterThanOrEqual(routes.length);
    const rejected = examples.flatMap(({ where, example, schema }) => {
      const result = schema.safeParse(example);
      return result.success ? [] : [`${where}: ${result.error.issues.map((issue) => `/${issue.path.join("/")} ${issue.message}`).join("; ")}`];
    });
    expect(rejected).toEqual([]);
  });

  it("ends the example of a recursive schema at its null branch", () => {
    const node = { $ref: "#/components/schemas/Node" };
    const components = {
      Node: { type: "object", properties: { name: { type: "string" }, parent: { oneOf: [node, { type: "null" }] } }, required: ["name", "parent"] },
    };
    expect(exampleFromSchema(node, components)).toEqual({ name: "xxxxxx", parent: null });
  });

  it("would catch an example the schema refuses", () => {
    const schema = spec.components.schemas;
    const broken = { ...schema, Account: { ...schema.Account!, example: { plan: 42 } } };
    const accountRoute = routes.find((route) => route.path === "/v1/account")!;
    const example = exampleFromSchema({ $ref: "#/components/schemas/Account" }, broken);
    expect(accountRoute.responses["200"]!.content!["application/json"]!.schema.safeParse(example).success).toBe(false);
  });

  it("links every problem type from the document's description", () => {
    const description = (spec as unknown as { info: { description: string } }).info.description;
    for (const slug of Object.keys(problemCatalogue)) expect(description).toContain(`(${PROBLEMS_PATH}/${slug})`);
  });
});

/** The page's text as a reader sees it: tags dropped, entities decoded. */
function textOf(page: string): string {
  return page
    .replace(/<[^>]+>/g, "")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

describe("problem type pages", () => {
  it("resolves every problem type to a page that explains it", async () => {
    for (const [slug, entry] of Object.entries(problemCatalogue) as [ProblemType, (typeof problemCatalogue)[ProblemType]][]) {
      const res = await api(`${PROBLEMS_PATH}/${slug}`);
      expect(res.status, slug).toBe(200);
      const page = textOf(await res.text());
      expect(page).toContain(problemTypeUri(slug));
      expect(page).toContain(entry.title);
      expect(page).toContain(entry.description.replace(/`/g, ""));
      expect(page).toContain(`HTTP ${entry.status}`);
    }
  });

  it("lists every type on one page with an anchor per slug", async () => {
    const page = await (await api(PROBLEMS_PATH)).text();
    for (const slug of Object.keys(problemCatalogue)) expect(page).toContain(`id="${slug}"`);
  });

  it("answers an unknown slug with a not_found problem", async () => {
    const problem = await problemOf(await api(`${PROBLEMS_PATH}/no_such_problem`));
    expect(problem).toMatchObject({ status: 404, type: problemTypeUri("not_found") });
  });

  it("escapes catalogue text and renders its code spans", async () => {
    const page = await (await api(`${PROBLEMS_PATH}/unauthorized`)).text();
    expect(page).toContain("<code>Authorization: Bearer ak_live_...</code>");
    expect(page).not.toContain("`");
  });
});
