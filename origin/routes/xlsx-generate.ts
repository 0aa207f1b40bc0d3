import { Writable } from "node:stream";
import { xlsxGenerateEndpoint } from "../../contracts/origin/xlsx-generate.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { XlsxRequest } from "../../contracts/xlsx-request.ts";
import { framedResponse } from "../http/framed-response.ts";
import { generateXlsx } from "../xlsx/generate-xlsx.ts";
import type { OriginRoute } from "./origin-route.ts";

/**
 * The edge is where a workbook request enters: it parsed it, checked it against the schema and
 * Excel's limits (400 / 422 before any charge) and inlined its pictures before sending it here,
 * signed with the origin secret. So the origin parses the JSON once and does not run the schema
 * again: a second pass cost as much CPU as the parse and held a second copy of every row (the
 * largest body peaked at 505 MB). The writer's own whole-request check (generateXlsx) still runs
 * before a byte is written.
 */
async function checkedRequest(body: Promise<string>): Promise<{ request: XlsxRequest; bytes: number }> {
  try {
    const text = await body;
    return { request: JSON.parse(text) as XlsxRequest, bytes: text.length };
  } catch {
    throw new ProblemError("invalid_json", "The workbook request is not valid JSON.");
  }
}

/** The request JSON in, the workbook and its stats out (framed: meta first). */
export const route: OriginRoute = {
  path: xlsxGenerateEndpoint.path,
  async handle(c, { computeSlots, clocks }) {
    const clock = clocks(c, xlsxGenerateEndpoint.path);
    const { request, bytes } = await checkedRequest(c.req.text());
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const stats = await computeSlots.run(clock.ticket(bytes), "The workbook", () => generateXlsx(request, sink));
    return framedResponse(xlsxGenerateEndpoint, { stats }, new Uint8Array(Buffer.concat(chunks)));
  },
};
