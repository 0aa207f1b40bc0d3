import { Writable } from "node:stream";
import { xlsxGenerateEndpoint } from "../../contracts/origin/xlsx-generate.ts";
import { framedResponse } from "../http/framed-response.ts";
import { generateXlsx } from "../xlsx/generate-xlsx.ts";
import { XlsxRequestStream } from "../xlsx/request-stream.ts";
import type { OriginRoute } from "./origin-route.ts";

/**
 * The edge is where a workbook request enters: it parsed it, checked it against the schema and
 * Excel's limits (400 / 422 before any charge) and inlined its pictures before sending it here,
 * signed with the origin secret, as lines (contracts/origin/xlsx-request-lines.ts). So the origin
 * does not run the schema again, and reads the rows as it writes them, each checked by the writer's
 * own check on its way through. The reply is the commit point: the workbook is held until every row
 * has been read, checked and written, so a bad row deep in the body is still a 4xx with nothing sent.
 */
export const route: OriginRoute = {
  path: xlsxGenerateEndpoint.path,
  async handle(c, { computeSlots, clocks }) {
    const clock = clocks(c, xlsxGenerateEndpoint.path);
    const declared = c.req.header("content-length");
    const { request, rows, end } = await new XlsxRequestStream(c.req.raw.body).request();
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    // Unknown size: the path's longest deadline, as the edge waits for such a call.
    const ticket = clock.ticket(declared === undefined ? Number.POSITIVE_INFINITY : Number(declared));
    const stats = await computeSlots.run(ticket, "The workbook", async () => {
      const written = await generateXlsx(request, sink, { rows });
      await end();
      return written;
    });
    return framedResponse(xlsxGenerateEndpoint, { stats }, chunks);
  },
};
