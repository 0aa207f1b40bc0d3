import { describe, expect, it } from "vitest";
import { ApiProblem, asProblem, problemOf } from "./api-problem.ts";

describe("problemOf", () => {
  it("takes title and detail from an RFC 9457 body", async () => {
    const body = {
      type: "https://x/problems/validation_failed",
      title: "Validation failed",
      status: 400,
      detail: "1 field is invalid",
      errors: [{ pointer: "/options/width", detail: "`width` is 1..16384" }, { pointer: 7 }],
    };
    const problem = await problemOf(new Response(JSON.stringify(body), { status: 400, headers: { "Content-Type": "application/problem+json" } }));
    expect([problem.status, problem.title, problem.detail]).toEqual([400, "Validation failed", "1 field is invalid"]);
    expect(problem.fields).toEqual([{ pointer: "/options/width", detail: "`width` is 1..16384" }]);
  });

  it("names the status when the body is not a problem", async () => {
    const problem = await problemOf(new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" }));
    expect([problem.title, problem.detail]).toEqual(["HTTP 502 Bad Gateway", undefined]);
  });

  it("turns a network failure into a problem without a stack", () => {
    const problem = asProblem(new TypeError("Failed to fetch"));
    expect(problem).toBeInstanceOf(ApiProblem);
    expect([problem.title, problem.detail]).toEqual(["The service did not answer", "Failed to fetch"]);
  });
});
