import type { Hono } from "hono";
import { Writable } from "node:stream";
import { xlsxGenerateEndpoint } from "../../contracts/origin/xlsx-generate.ts";
import { validationProblem } from "../../contracts/problems/validation-problem.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { framedResponse } from "../http/framed-response.ts";
import type { ComputeSlots } from "../worker-pool/compute-slots.ts";
import { generateXlsx } from "../xlsx/generate-xlsx.ts";
import type { CallClocks } from "./call-ticket.ts";

/** The request JSON in, the workbook and its stats out (framed: meta first). */
export function registerXlsxGenerate(app: Hono, slots: ComputeSlots, clocks: CallClocks): void {
  app.post(xlsxGenerateEndpoint.path, async (c) => {
    const clock = clocks(c, xlsxGenerateEndpoint.path);
    let raw: unknown;
    let bodyBytes: number;
    try {
      const text = await c.req.text();
      bodyBytes = text.length;
      raw = JSON.parse(text);
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
    const stats = await slots.run(clock.ticket(bodyBytes), "The workbook", () => generateXlsx(parsed.data, sink));
    return framedResponse(xlsxGenerateEndpoint, { stats }, new Uint8Array(Buffer.concat(chunks)));
  });
}
