import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { createServer } from "node:net";
import ExcelJS from "exceljs";
import { afterEach, describe, expect, it } from "vitest";
import { FRAMED_CONTENT_TYPE } from "../contracts/origin/framing.ts";
import { xlsxRequestSchema } from "../contracts/xlsx-request.ts";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function waitForOutput(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) {
        child.stdout!.off("data", onData);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`origin exited (${code}) before printing "${text}":\n${seen}`)));
  });
}

let origin: ChildProcess | null = null;
afterEach(() => {
  if (origin?.exitCode === null) origin.kill("SIGKILL");
});

describe("origin server on SIGTERM", () => {
  it("finishes the request it is serving, refuses new ones with 503 + Retry-After, then exits 0", async () => {
    const port = await freePort();
    origin = spawn(process.execPath, ["origin/server.ts"], {
      env: { ...process.env, PORT: String(port), ENVIRONMENT: "development", ORIGIN_SECRET: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const child = origin;
    await waitForOutput(child, "origin listening");

    // What the edge sends: the request as its schema checked it, defaults filled in.
    const workbook = JSON.stringify(
      xlsxRequestSchema.parse({
        filename: "drain.xlsx",
        sheets: [{ name: "Data", columns: [{ key: "n", header: "N", type: "number" }], rows: [[1], [2], [3]] }],
      }),
    );
    // With Expect: 100-continue the server answers "continue" only once it holds the request, so
    // SIGTERM lands while this request is in flight (its body not even sent yet) without any sleep.
    const inFlight = request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/xlsx/generate",
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(workbook), Expect: "100-continue" },
    });
    const answer = new Promise<{ status: number; type: string | undefined; body: Buffer }>((resolve, reject) => {
      inFlight.once("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.once("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"], body: Buffer.concat(chunks) }));
        res.once("error", reject);
      });
      inFlight.once("error", reject);
    });
    await new Promise<void>((resolve) => inFlight.once("continue", resolve));

    const draining = waitForOutput(child, "origin draining 1 request(s)");
    child.kill("SIGTERM");
    await draining;

    const refused = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("2");
    expect(((await refused.json()) as { type: string }).type).toMatch(/origin_unavailable$/);
    expect(child.exitCode).toBeNull();

    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    inFlight.end(workbook);
    const { status, type, body } = await answer;
    expect(status).toBe(200);
    expect(type).toBe(FRAMED_CONTENT_TYPE);
    const metaLength = body.readUInt32BE(0);
    const xlsx = body.subarray(4 + metaLength);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx as unknown as ArrayBuffer);
    expect(book.getWorksheet("Data")!.getCell("A4").value).toBe(3);
    expect(await exited).toBe(0);
  });
});
