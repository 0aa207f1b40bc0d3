import { describe, expect, it } from "vitest";
import { api } from "./api.ts";
import { responseContractErrors, validateSchema, type OpenApiDocument } from "./response-contract.ts";

const document = await (await api("/openapi.json")).json<OpenApiDocument>();

const json = (body: unknown, status = 200, type = "application/json") => new Response(JSON.stringify(body), { status, headers: { "Content-Type": type } });

function imageResult(candidates: unknown) {
  const stats = {
    original_bytes: 100, output_bytes: 50, ratio: 0.5, original_width: 10, original_height: 10, original_format: "png",
    quality: 76, score: null, quality_level: null, quality_target: null, target_met: null, chroma_subsampling: "4:2:0", jpeg_table: null, webp_effort: 4, lossless: false, encodes: 3, orientation_applied: null, first_frame_only: false, frames: 1, duration_ms: null, format_chosen_by_auto: true, candidates,
  };
  return { file_id: "file_1", url: "https://api.test/x", expires_at: "2026-11-24T00:00:00.000Z", filename: "a.webp", content_type: "image/webp", format: "webp", width: 10, height: 10, stats, billing: { charged_micros: 800 } };
}

describe("response contract check", () => {
  const optimize = { method: "POST", url: "http://api.test/v1/image/optimize" };

  it("accepts candidates as the service sends them and names each field of the shape it once declared", async () => {
    const sent = [{ format: "webp", quality: 76, score: null, lossless: false, output_bytes: 50 }];
    const sentErrors = await responseContractErrors(document, optimize, json(imageResult(sent)));
    const declaredBefore = [{ format: "webp", quality: 76, bytes: 50 }];
    const beforeErrors = await responseContractErrors(document, optimize, json(imageResult(declaredBefore)));
    expect(sentErrors.filter((error) => error.includes("/stats/"))).toEqual([]);
    expect(beforeErrors).toEqual(
      expect.arrayContaining([expect.stringContaining("/stats/candidates/0 missing required property lossless"), expect.stringContaining("/stats/candidates/0 missing required property output_bytes")]),
    );
  });

  it("refuses a status, a content type or a path the document does not declare", async () => {
    expect(await responseContractErrors(document, optimize, json({}, 418))).toEqual([expect.stringContaining("status 418 is not declared for POST /v1/image/optimize")]);
    expect(await responseContractErrors(document, optimize, new Response("<p>ok</p>", { headers: { "Content-Type": "text/html" } }))).toEqual([
      expect.stringContaining("Content-Type text/html is not declared"),
    ]);
    expect(await responseContractErrors(document, { method: "GET", url: "http://api.test/v1/nowhere" }, json({}, 200))).toEqual([expect.stringContaining("no operation")]);
  });

  it("resolves path templates and validates problems against the problem schema", async () => {
    const job = { method: "GET", url: "http://api.test/v1/jobs/job_abc" };
    const problem = { type: "https://pixelpress.dev/problems/not_found", title: "Not found", status: 404, detail: "No such job.", request_id: "req_1" };
    expect(await responseContractErrors(document, job, json(problem, 404, "application/problem+json"))).toEqual([]);
    expect(await responseContractErrors(document, job, json({ ...problem, status: "404" }, 404, "application/problem+json"))).toEqual([expect.stringContaining("/status expected integer")]);
  });

  it("fails a schema keyword it does not know rather than passing it unchecked", () => {
    expect(validateSchema(document, { type: "string", contentEncoding: "base64" }, "x")).toEqual([{ pointer: "/", message: "unsupported schema keyword contentEncoding" }]);
  });
});
