import { describe, expect, it, vi } from "vitest";
import { encodeOptionsHeader, ORIGIN_LOAD_HEADER, ORIGIN_OPTIONS_HEADER, parseOriginLoad, ORIGIN_SECRET_HEADER, REQUEST_ID_HEADER } from "../contracts/origin/framing.ts";
import { ProblemError } from "../contracts/problems/catalogue.ts";
import { originHealthSchema } from "../contracts/origin/health.ts";
import { createOriginApp } from "./app.ts";
import { ComputeSlots } from "./worker-pool/compute-slots.ts";

describe("origin app", () => {
  const app = createOriginApp({ secret: "s3cret" });

  it("serves /healthz without the secret", async () => {
    const res = await app.request("/healthz");
    expect(res.status).toBe(200);
    const health = originHealthSchema.parse(await res.json());
    expect(health.status).toBe("ok");
    expect(health.rss_bytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it("reports saturation, with the queued work and busy workers, while every slot is taken and work waits", async () => {
    const computeSlots = new ComputeSlots({ size: 1 });
    const saturable = createOriginApp({ secret: null, computeSlots });
    const health = async () => originHealthSchema.parse(await (await saturable.request("/healthz")).json());
    let release = () => undefined as void;
    const held = computeSlots.run({ account: "A" }, "held", () => new Promise<void>((resolve) => (release = resolve)));
    expect((await health()).status).toBe("ok");
    const waiting = computeSlots.run({ account: "B" }, "waiting", () => Promise.resolve());
    expect(await health()).toMatchObject({ status: "saturated", pools: { compute: { size: 1, busy: 1, queued: 1 } } });
    release();
    await Promise.all([held, waiting]);
    expect(await health()).toMatchObject({ status: "ok", pools: { compute: { busy: 0, queued: 0 } } });
  });

  it("tells the edge its load on every reply, a refusal included, and counts the calls it received", async () => {
    const computeSlots = new ComputeSlots({ size: 3 });
    const pdfPool = { analyze: () => Promise.reject(new Error("unused")), compress: () => Promise.reject(new Error("unused")), load: () => ({ size: 2, busy: 1, queued: 4, timedOut: 0 }) };
    const counted = createOriginApp({ secret: "s3cret", computeSlots, pdfPool });
    const requests = async () => originHealthSchema.parse(await (await counted.request("/healthz")).json()).requests;
    let release = () => undefined as void;
    const held = computeSlots.run({ account: "A" }, "held", () => new Promise<void>((resolve) => (release = resolve)));
    expect(await requests()).toBe(0);
    const refused = await counted.request("/image/process", { method: "POST" });
    expect(refused.status).toBe(401);
    expect(parseOriginLoad(refused.headers.get(ORIGIN_LOAD_HEADER))).toEqual({ busy: 2, queued: 4, size: 5 });
    const missing = await counted.request("/nowhere", { headers: { [ORIGIN_SECRET_HEADER]: "s3cret" } });
    expect(missing.headers.get(ORIGIN_LOAD_HEADER)).toBe("busy=2, queued=4, size=5");
    expect(await requests()).toBe(2);
    release();
    await held;
    const after = await counted.request("/healthz");
    expect(parseOriginLoad(after.headers.get(ORIGIN_LOAD_HEADER))).toEqual({ busy: 1, queued: 4, size: 5 });
  });

  it("refuses every other route without the right secret, as a problem", async () => {
    const attempts: Record<string, string>[] = [{}, { [ORIGIN_SECRET_HEADER]: "wrong" }, { [ORIGIN_SECRET_HEADER]: "s3cret-but-longer" }];
    for (const headers of attempts) {
      const res = await app.request("/image/process", { method: "POST", headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    }
  });

  it("lets the secret through to routing", async () => {
    const res = await app.request("/no-such-route", { headers: { [ORIGIN_SECRET_HEADER]: "s3cret" } });
    expect(res.status).toBe(404);
  });
});

describe("origin errors", () => {
  const failing = {
    analyze: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'secretField')")),
    compress: () => Promise.reject(new ProblemError("pdf_unreadable", "The file has no %PDF- header: it is not a PDF.")),
    load: () => ({ size: 1, busy: 0, queued: 0, timedOut: 0 }),
  };
  const app = createOriginApp({ secret: null, pdfPool: failing });
  const post = (path: string, headers: Record<string, string> = {}) =>
    app.request(path, { method: "POST", body: new Uint8Array([37, 80, 68, 70]), headers: { [ORIGIN_OPTIONS_HEADER]: encodeOptionsHeader({}), ...headers } });

  it("answers an unexpected exception with a 500 problem carrying the request id, logged here, its text kept out", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await post("/pdf/analyze", { [REQUEST_ID_HEADER]: "req_abc123" });
    expect(res.status).toBe(500);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect(res.headers.get(REQUEST_ID_HEADER)).toBe("req_abc123");
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ type: "https://pixelpress.dev/problems/internal_error", status: 500, request_id: "req_abc123" });
    expect(text).not.toMatch(/secretField|TypeError|properties/);
    expect(logged.mock.calls.flat().join(" ")).toContain("req_abc123");
    expect(logged.mock.calls.flat().some((part) => part instanceof TypeError)).toBe(true);
    logged.mockRestore();
  });

  it("gives an expected problem its own status and a request id of its own when the edge sent none", async () => {
    const res = await post("/pdf/compress");
    expect(res.status).toBe(422);
    const problem = (await res.json()) as { type: string; request_id: string };
    expect(problem.type).toBe("https://pixelpress.dev/problems/pdf_unreadable");
    expect(problem.request_id).toMatch(/^origin_[0-9a-f-]{36}$/);
  });
});
