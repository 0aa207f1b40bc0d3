// originFetch over a pool of Containers instances, each a fake that records its calls: where a
// call goes, by the load replies declare, and where its retry goes.
import { env as testEnv } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { encodeOriginLoad, ORIGIN_LOAD_HEADER, type OriginLoad } from "../../contracts/origin/framing.ts";
import type { Bindings } from "../env.ts";
import { originFetch } from "./origin-client.ts";

type Answer = (request: Request) => Promise<Response>;

/** A pool of `answers.length` instances; instance i answers with answers[i]. */
function pool(answers: Answer[]) {
  const calls: { instance: number; path: string }[] = [];
  const namespace = {
    idFromName: (name: string) => name,
    get: (name: string) => {
      const instance = Number(name.replace("origin-", ""));
      return {
        fetch: (request: Request) => {
          calls.push({ instance, path: new URL(request.url).pathname });
          return answers[instance]!(request);
        },
      };
    },
  };
  const env = {
    ORIGIN_URL: "",
    ORIGIN_SECRET: "secret",
    ORIGIN_INSTANCES: String(answers.length),
    ORIGIN_CONTAINER: namespace as unknown as Bindings["ORIGIN_CONTAINER"],
  };
  return { env, calls };
}

const declaring = (load: OriginLoad): Answer => () => Promise.resolve(new Response("ok", { headers: { [ORIGIN_LOAD_HEADER]: encodeOriginLoad(load) } }));
const never: Answer = (request) => new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(new Error("abandoned"))));

describe("the origin pool", () => {
  it("sends new calls to the instance whose replies declare less load", async () => {
    const { env, calls } = pool([declaring({ busy: 6, queued: 5, size: 6 }), declaring({ busy: 1, queued: 0, size: 6 })]);
    // Until each has answered once, both look idle.
    for (let i = 0; i < 20 && new Set(calls.map((call) => call.instance)).size < 2; i++) await originFetch(env, "/image/process", { method: "POST", body: "x" });
    expect(new Set(calls.map((call) => call.instance))).toEqual(new Set([0, 1]));
    calls.length = 0;
    for (let i = 0; i < 10; i++) await originFetch(env, "/image/process", { method: "POST", body: "x" });
    expect(calls.map((call) => call.instance)).toEqual(Array(10).fill(1));
  });

  it("retries a reset connection on another instance, and skips the failed one after", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { env, calls } = pool([() => Promise.reject(new TypeError("Network connection lost.")), declaring({ busy: 0, queued: 0, size: 4 })]);
    for (let i = 0; i < 10; i++) expect((await originFetch(env, "/image/process", { method: "POST", body: "x" })).status).toBe(200);
    // At most the first call met the dead instance; its retry and every later call went to the other.
    expect(calls.filter((call) => call.instance === 0).length).toBeLessThanOrEqual(1);
    expect(calls.filter((call) => call.instance === 1).length).toBe(10);
    logged.mockRestore();
  });

  it("abandons a call on an instance that stopped answering, health probe included, and retries it elsewhere", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { env, calls } = pool([never, never, never].map((frozen, i) => (i === 2 ? declaring({ busy: 0, queued: 0, size: 4 }) : frozen)));
    for (let i = 0; i < 3; i++) expect((await originFetch(env, "/image/process", { method: "POST", body: "x" })).status).toBe(200);
    const frozenCalls = calls.filter((call) => call.instance !== 2 && call.path === "/image/process");
    // A retry goes to another instance, and each frozen one is met at most once before its back-off.
    expect(frozenCalls.length).toBeLessThanOrEqual(2);
    expect(new Set(frozenCalls.map((call) => call.instance)).size).toBe(frozenCalls.length);
    expect(calls.filter((call) => call.instance === 2 && call.path === "/image/process").length).toBe(3);
    logged.mockRestore();
  });

  it("leaves a streamed body on a slow instance that still answers its health probe", async () => {
    let release = () => undefined as void;
    const slow: Answer = (request) =>
      new URL(request.url).pathname === "/healthz" ? declaring({ busy: 1, queued: 0, size: 1 })(request) : new Promise((resolve) => (release = () => resolve(new Response("done"))));
    const { env, calls } = pool([slow]);
    const answered = originFetch(env, "/pdf/compress", { method: "POST", body: new Blob(["pdf"]).stream() });
    await vi.waitFor(() => expect(calls.some((call) => call.path === "/healthz")).toBe(true), { timeout: 5_000 });
    release();
    expect(await (await answered).text()).toBe("done");
    expect(calls.filter((call) => call.path === "/pdf/compress").length).toBe(1);
  });

  it("reads several origins from ORIGIN_URL, and answers every call while one of them refuses connections", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const env = { ORIGIN_URL: ` http://127.0.0.1:9 , ${testEnv.ORIGIN_URL}`, ORIGIN_SECRET: testEnv.ORIGIN_SECRET };
    for (let i = 0; i < 6; i++) {
      const res = await originFetch(env, "/healthz");
      expect(res.status).toBe(200);
      expect(res.headers.get(ORIGIN_LOAD_HEADER)).toMatch(/^busy=\d+, queued=\d+, size=\d+$/);
      await res.body?.cancel();
    }
    logged.mockRestore();
  });
});
