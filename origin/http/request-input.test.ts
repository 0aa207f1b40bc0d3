import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemResponse } from "../../contracts/problems/problem-response.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { inputBytes } from "./request-input.ts";

const MAX_BYTES = 300_000;

// Through the real Node adapter: what it hands over (chunked, or with a Content-Length) is what is read.
describe("inputBytes", () => {
  let server: ServerType;
  let url: string;

  beforeAll(async () => {
    const app = new Hono();
    app.onError((error) => (error instanceof ProblemError ? problemResponse(error.toBody()) : new Response(String(error), { status: 500 })));
    app.post("/echo", async (c) => {
      const bytes = await inputBytes(c, MAX_BYTES);
      return new Response(bytes.slice(), { headers: { "X-Buffer-Length": String(bytes.buffer.byteLength) } });
    });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
        url = `http://127.0.0.1:${info.port}/echo`;
        resolve();
      });
    });
  });

  afterAll(() => {
    server.close();
  });

  const chunked = (parts: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });

  it("reads a declared body into one buffer of exactly its length", async () => {
    const input = new Uint8Array(randomBytes(250_000));
    const res = await fetch(url, { method: "POST", body: input });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(input);
    expect(res.headers.get("X-Buffer-Length")).toBe("250000");
  });

  it("reads a chunked body of unknown length, growing as it goes", async () => {
    const parts = [randomBytes(70_000), randomBytes(1), randomBytes(120_000)].map((part) => new Uint8Array(part));
    const res = await fetch(url, { method: "POST", body: chunked(parts), duplex: "half" } as RequestInit);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.concat(parts))).toBe(true);
  });

  it("refuses a declared length over the limit with 413", async () => {
    const res = await fetch(url, { method: "POST", body: new Uint8Array(MAX_BYTES + 1) });
    expect(res.status).toBe(413);
  });

  it("refuses an undeclared body once it passes the limit, with 413", async () => {
    const parts = Array.from({ length: 4 }, () => new Uint8Array(100_000));
    const res = await fetch(url, { method: "POST", body: chunked(parts), duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("refuses an empty body with 422", async () => {
    const res = await fetch(url, { method: "POST", body: new Uint8Array(0) });
    expect(res.status).toBe(422);
  });
});
