import { createMessageBatch, env } from "cloudflare:test";
import * as XLSX from "xlsx";
import { cellsOf } from "../../test/support/xlsx-cells.ts";
import { describe, expect, it } from "vitest";
import { XLSX_SYNC_CELL_LIMIT } from "../../contracts/xlsx-request.ts";
import { jobRunners } from "../jobs/job-runners.ts";
import { consumeJobQueue } from "../jobs/queue-consumer.ts";
import { api, problemOf, seedCaller, type TestCaller } from "../test-support/api.ts";
import { balanceOf, ledgerOf } from "../test-support/account-books.ts";

const invoices = {
  filename: "invoices.xlsx",
  sheets: [
    {
      name: "Invoices",
      columns: [
        { key: "co", header: "Company", type: "string" },
        { key: "total", header: "Total", type: "number" },
      ],
      rows: [["Acme", 1500.5], ["=HYPERLINK(\"http://evil\")", 2]],
      cells: { B4: { formula: "SUM(B2:B3)" } },
    },
  ],
};

function generate(caller: TestCaller, body: unknown) {
  return api("/v1/xlsx/generate", { key: caller, json: body });
}

async function workbookAt(url: string): Promise<XLSX.WorkBook> {
  const u = new URL(url);
  const res = await api(u.pathname + u.search);
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  return XLSX.read(new Uint8Array(await res.arrayBuffer()), { type: "array", cellFormula: true, sheetStubs: true });
}

describe("POST /v1/xlsx/generate", () => {
  it("builds a workbook that reopens with its values, keeps = strings as text, and bills by cells", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const res = await generate(caller, invoices);
    expect(res.status).toBe(200);
    const result = await res.json<{ url: string; stats: { cells: number; sheets: number }; billing: { charged_micros: number } }>();
    expect(result.stats).toMatchObject({ sheets: 1, cells: 7 });
    expect(result.billing.charged_micros).toBe(5_001);
    expect(await balanceOf(caller.accountId)).toBe(100_000 - 5_001);

    const sheet = cellsOf((await workbookAt(result.url)).Sheets.Invoices!);
    expect(sheet.A2!.v).toBe("Acme");
    expect(sheet.B2!.v).toBe(1500.5);
    expect(sheet.A3!.t).toBe("s");
    expect(sheet.A3!.f).toBeUndefined();
    expect(sheet.A3!.v).toBe('=HYPERLINK("http://evil")');
    expect(sheet.B4!.f).toBe("SUM(B2:B3)");
  });

  it("answers Excel limit violations with 422 and a pointer, before any work, at $0", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const bad = { sheets: [{ name: "a/b", columns: [{ key: "x", type: "string" }], rows: [["x".repeat(32_768)]] }] };
    const problem = await problemOf(await generate(caller, bad));
    expect(problem.status).toBe(422);
    expect(problem.errors!.map((e) => e.pointer)).toEqual(expect.arrayContaining(["/sheets/0/name", "/sheets/0/rows/0/0"]));
    expect(await balanceOf(caller.accountId)).toBe(100_000);
  });

  it("refuses a sheet name with a control character, which the writer would strip into a duplicate, at $0", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const sheet = (name: string) => ({ name, columns: [{ key: "x", type: "string" }], rows: [["v"]] });
    const res = await generate(caller, { sheets: [sheet("x\u0000y"), sheet("xy")] });
    const problem = await problemOf(res);
    expect(problem.status).toBe(422);
    expect(problem.type).toMatch(/xlsx_limits$/);
    expect(problem.errors?.map(({ pointer }) => pointer)).toEqual(["/sheets/0/name"]);
    expect(problem.errors?.[0]?.detail).toMatch(/U\+0000/);
    expect(await balanceOf(caller.accountId)).toBe(100_000);
    expect(await ledgerOf(caller.accountId, (row) => row.amountMicros > 0)).toEqual([]);
  });

  it("writes notes, rich text, outline, protection, print setup and a picture through the origin, and bills only cells", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const res = await generate(caller, {
      styles: { strong: { bold: true } },
      sheets: [
        {
          ...invoices.sheets[0],
          cells: { D1: { rich: [{ text: "Due ", style: "strong" }, { text: "soon" }] } },
          comments: [{ cell: "A2", text: "Key account", author: "Sales" }],
          outline: { rows: [{ range: "3", level: 1, hidden: true }] },
          protection: { password: "s3cret" },
          print: { orientation: "landscape", paper: "a4", footer: { right: "{page}/{pages}" } },
          images: [{ source: { base64: pixel }, anchor: "F2", width: 64, height: 64 }],
        },
      ],
    });
    expect(res.status).toBe(200);
    const result = await res.json<{ url: string; stats: { cells: number }; billing: { charged_micros: number } }>();
    expect(result.stats.cells).toBe(7);
    expect(result.billing.charged_micros).toBe(5_001);
    const u = new URL(result.url);
    const bytes = new Uint8Array(await (await api(u.pathname + u.search)).arrayBuffer());
    const book = XLSX.read(bytes, { type: "array", bookFiles: true }) as XLSX.WorkBook & { files: Record<string, { content: Uint8Array }> };
    const sheet = cellsOf(book.Sheets.Invoices!);
    expect(sheet.A2!.c).toEqual([expect.objectContaining({ a: "Sales", t: "Key account" })]);
    expect(sheet.D1!.v).toBe("Due soon");
    const xml = new TextDecoder().decode(book.files["xl/worksheets/sheet1.xml"]!.content);
    expect(xml).toMatch(/<row r="3" hidden="1" outlineLevel="1">/);
    expect(xml).toMatch(/<sheetProtection algorithmName="SHA-512" hashValue="[^"]+" saltValue="[^"]+" spinCount="100000"/);
    expect(xml).not.toContain("s3cret");
    expect(xml).toContain('<pageSetup paperSize="9" orientation="landscape"/>');
    expect(book.files["xl/media/image1.png"]).toBeDefined();
  });

  it("refuses a picture that is not PNG or JPEG and overlapping outline spans with 400 and pointers, at $0", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const problem = await problemOf(
      await generate(caller, {
        sheets: [{ ...invoices.sheets[0], images: [{ source: { base64: btoa("GIF89a not a picture") }, anchor: "F2" }], outline: { columns: [{ range: "A:B" }, { range: "B:C" }] } }],
      }),
    );
    expect(problem.status).toBe(400);
    expect(problem.errors!.map((e) => e.pointer)).toEqual(["/sheets/0/outline/columns/1/range", "/sheets/0/images/0/source/base64"]);
    expect(await balanceOf(caller.accountId)).toBe(100_000);
  });

  it("reads a picture given by file_id at the edge, and names a picture whose file does not exist", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const stored = await (await api("/v1/files", { key: caller, json: { source: { base64: pixel }, expires_at: null } })).json<{ file_id: string }>();
    const res = await generate(caller, { sheets: [{ ...invoices.sheets[0], images: [{ source: { file_id: stored.file_id }, anchor: "F2" }] }] });
    expect(res.status).toBe(200);
    const u = new URL((await res.json<{ url: string }>()).url);
    const book = XLSX.read(new Uint8Array(await (await api(u.pathname + u.search)).arrayBuffer()), { type: "array", bookFiles: true }) as XLSX.WorkBook & { files: Record<string, { content: Uint8Array }> };
    expect(btoa(String.fromCharCode(...book.files["xl/media/image1.png"]!.content))).toBe(pixel);

    const before = await balanceOf(caller.accountId);
    const missing = await problemOf(await generate(caller, { sheets: [{ ...invoices.sheets[0], images: [{ source: { base64: pixel }, anchor: "F2" }, { source: { file_id: "file_doesnotexist0000000" }, anchor: "F9" }] }] }));
    expect(missing.status).toBe(404);
    expect(missing.detail).toContain("/sheets/0/images/1/source");
    expect(await balanceOf(caller.accountId)).toBe(before);
  });

  it("sends workbooks over the sync limit to async, and runs them as a job", async () => {
    const caller = await seedCaller({ balanceMicros: 100_000 });
    const columns = Array.from({ length: 10 }, (_, i) => ({ key: `c${i}`, type: "integer" }));
    const rows = Array.from({ length: XLSX_SYNC_CELL_LIMIT / 10 + 1 }, (_, r) => Array.from({ length: 10 }, (_, c) => r * 10 + c));
    const big = { filename: "big.xlsx", sheets: [{ name: "Data", columns, rows }] };
    const refused = await problemOf(await generate(caller, big));
    expect(refused.status).toBe(413);
    expect(refused.detail).toMatch(/mode: async/);

    const accepted = await generate(caller, { ...big, mode: "async" });
    expect(accepted.status).toBe(202);
    const { job_id } = await accepted.json<{ job_id: string }>();
    await consumeJobQueue(createMessageBatch("pixelpress-jobs", [{ id: "x", timestamp: new Date(), attempts: 1, body: { kind: "job", job_id, account_id: caller.accountId } }]), env, jobRunners);
    const job = await (await api(`/v1/jobs/${job_id}`, { key: caller })).json<{ status: string; result: { url: string; stats: { cells: number } } }>();
    expect(job.status).toBe("succeeded");
    expect(job.result.stats.cells).toBe(XLSX_SYNC_CELL_LIMIT + 10);
    const sheet = cellsOf((await workbookAt(job.result.url)).Sheets.Data!);
    expect(sheet.J20001!.v).toBe(200_009);
  });
});
