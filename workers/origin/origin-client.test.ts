// What a client sees when the origin misbehaves. The real origin never sends garbage, so these
// tests put a fake in its place through the Containers binding the edge falls back to.
import { describe, expect, it, vi } from "vitest";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import { frameHead } from "../../contracts/origin/framing.ts";
import { problemBody } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { problemOf, seedCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { balanceOf } from "../test-support/account-books.ts";
import { seedSource, transformUrl } from "../test-support/transform-requests.ts";

function originAnswering(answer: (request: Request) => Response): Partial<Bindings> {
  const container = { fetch: (request: Request) => Promise.resolve(answer(request)) };
  const namespace = { idFromName: () => ({}), get: () => container };
  return { ORIGIN_URL: "", ORIGIN_CONTAINER: namespace as unknown as Bindings["ORIGIN_CONTAINER"] };
}

async function optimizeThrough(origin: Partial<Bindings>) {
  const caller = await seedCaller({ balanceMicros: 10_000 });
  const photo = await generatedBytes("landscape-3.jpg");
  const request = new Request("http://api.test/v1/image/optimize", {
    method: "POST",
    headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ source: { base64: encodeBase64(photo) }, options: { width: 100, format: "jpeg" } }),
  });
  const res = await fetchWithEnv(origin, request);
  return { caller, res };
}

const framed = (meta: unknown, payload: number[]) =>
  new Response(new Uint8Array([...frameHead(meta), ...payload]), { headers: { "Content-Type": "application/vnd.pixelpress.framed" } });

describe("replies from the origin", () => {
  it("answers a garbage reply with 502 origin_invalid_reply, its request id, and no charge", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { caller, res } = await optimizeThrough(originAnswering(() => new Response(new Uint8Array([0, 0, 0, 5, 123, 34, 120, 125, 125, 9]))));
    expect(res.status).toBe(502);
    const problem = await problemOf(res);
    expect(problem.type).toBe("https://pixelpress.dev/problems/origin_invalid_reply");
    expect(problem.request_id).toMatch(/\S/);
    expect(problem.request_id).toBe(res.headers.get("X-Request-Id"));
    expect(problem.detail).not.toMatch(/JSON|Unexpected|position/);
    expect(await balanceOf(caller.accountId)).toBe(10_000);
    logged.mockRestore();
  });

  it("sends the origin the request id the client gets, so both logs name the same request", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const seen: (string | null)[] = [];
    const { res } = await optimizeThrough(
      originAnswering((request) => {
        seen.push(request.headers.get("X-Request-Id"));
        return new Response("{}", { status: 500, headers: { "Content-Type": "application/problem+json" } });
      }),
    );
    expect(res.headers.get("X-Request-Id")).toMatch(/^req_/);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(new Set(seen)).toEqual(new Set([res.headers.get("X-Request-Id")]));
    logged.mockRestore();
  });

  it("answers a well-framed reply whose meta breaks the contract with 502 too", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const meta = { format: "jpeg", width: "wide", height: 66, stats: {} };
    const { res } = await optimizeThrough(originAnswering(() => framed(meta, [255, 216, 255, 217])));
    expect(res.status).toBe(502);
    expect((await problemOf(res)).type).toMatch(/origin_invalid_reply$/);
    expect(logged.mock.calls.flat().join(" ")).toContain("/image/process");
    logged.mockRestore();
  });

  it("passes on the origin's 501 for a tool it lacks, naming the tool, and charges nothing", async () => {
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const fileId = await seedSource(caller, await generatedBytes("animated.gif"), "image/gif");
    const missing = problemBody("encoder_unavailable", "Videos are encoded by ffmpeg, which this origin cannot run.", { extensions: { tool: "ffmpeg" } });
    const origin = originAnswering(() => new Response(JSON.stringify(missing), { status: 501, headers: { "Content-Type": "application/problem+json" } }));
    const res = await fetchWithEnv(origin, new Request(`http://api.test${transformUrl(caller, "f_mp4", fileId)}`));
    expect(await problemOf(res)).toMatchObject({ type: "https://pixelpress.dev/problems/encoder_unavailable", status: 501, tool: "ffmpeg" });
    expect(await balanceOf(caller.accountId)).toBe(10_000);
  });

  it("answers an internal error at the origin with 500 and none of its text", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const internal = problemBody("internal_error", "TypeError at /srv/origin/image/encode.ts:88 reading 'quality'", { requestId: "origin_req_1" });
    const { res } = await optimizeThrough(originAnswering(() => new Response(JSON.stringify(internal), { status: 500, headers: { "Content-Type": "application/problem+json" } })));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ type: "https://pixelpress.dev/problems/internal_error", status: 500, request_id: res.headers.get("X-Request-Id") });
    expect(text).not.toMatch(/TypeError|encode\.ts|srv/);
    expect(logged.mock.calls.flat().join(" ")).toContain("origin_req_1");
    logged.mockRestore();
  });

  it("answers an origin that cannot be reached with 503 and without naming where it lives", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { res } = await optimizeThrough(
      originAnswering(() => {
        throw new TypeError("connect ECONNREFUSED 10.0.3.7:8788");
      }),
    );
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).toMatch(/"type":"[^"]*\/origin_unavailable"/);
    expect(text).not.toMatch(/ECONNREFUSED|10\.0\.3\.7/);
    logged.mockRestore();
  });
});
