import { describe, expect, it } from "vitest";
import { jobOperations, operationDeclarations, operations, type ProcessingOperation } from "../../contracts/operations.ts";
import { createApp } from "../app.ts";
import { scopes } from "../auth/scopes.ts";
import { jobRunners } from "../jobs/job-runners.ts";
import { jobResultSchemas, jobSchema } from "../jobs/job-view.ts";
import { openApiDocument } from "../openapi/document.ts";
import { operationModules, processingOperations } from "./operation-list.ts";

// Every table below is derived from contracts/operations.ts and the operation list; a name that
// one of them lacks (or holds beyond the list) fails here, whatever a future edit does to the types.
const processing = operations.filter((name): name is ProcessingOperation => operationDeclarations[name].served === "processing");

describe("the operation list and the tables derived from it", () => {
  it("holds one module for each processing operation, under its own name", () => {
    expect(Object.keys(operationModules).sort()).toEqual([...processing].sort());
    for (const [name, module] of Object.entries(operationModules)) expect(module.name).toBe(name);
    expect(processingOperations.map((module) => module.name).sort()).toEqual([...processing].sort());
  });

  it("serves each processing operation at its path, with a 202 exactly when it runs as a job", () => {
    const spec = createApp().getOpenAPI31Document(openApiDocument);
    for (const module of processingOperations) {
      const post = spec.paths?.[module.http.path]?.post;
      expect(post, module.name).toBeDefined();
      expect(Object.keys(post?.responses ?? {}).includes("202"), module.name).toBe((jobOperations as string[]).includes(module.name));
    }
  });

  it("has a job runner, a result schema and a member of the job view for each job operation, and for nothing else", () => {
    expect(Object.keys(jobRunners).sort()).toEqual([...jobOperations].sort());
    for (const runner of Object.values(jobRunners)) expect(typeof runner).toBe("function");
    expect(Object.keys(jobResultSchemas).sort()).toEqual([...jobOperations].sort());
    const members = jobSchema.options.map((member) => member.shape.operation.value);
    expect([...members].sort()).toEqual([...jobOperations].sort());
    for (const name of jobOperations) expect(operationModules[name].job).not.toBeNull();
  });

  it("grants each operation by a declared scope", () => {
    for (const name of operations) expect(scopes).toContain(operationDeclarations[name].scope);
  });
});
