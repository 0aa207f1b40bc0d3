import type { Hono } from "hono";
import { Writable } from "node:stream";
import { xlsxGenerateEndpoint } from "../../contracts/origin/xlsx-generate.ts";
import { validationProblem } from "../../contracts/problems/validation-problem.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { ConcurrencyLimit } from "../../contracts/concurrency/concurrency-limit.ts";
import { framedResponse } from "../http/framed-response.ts";
import { generateXlsx } from "../xlsx/generate-xlsx.ts";

/** The request JSON in, the workbook and its stats out (framed: meta first). */
export function registerXlsxGenerate(app: Hono, limit: ConcurrencyLimit): void {
  app.post(xlsxGenerateEndpoint.path, async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new ProblemError("invalid_json", "The workbook request is not valid JSON.");
    }
    const parsed = xlsxGenerateEndpoint.body.safeParse(raw);
    if (!parsed.success) throw validationProblem(parsed.error.issues, "json");
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const stats = await limit(() => generateXlsx(parsed.data, sink));
    return framedResponse(xlsxGenerateEndpoint, { stats }, new Uint8Array(Buffer.concat(chunks)));
  });
}
