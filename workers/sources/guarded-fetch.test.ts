// The injected fetch stands in for the network: it answers with real Response objects and
// records what the guard asked for. The code under test is the guard around it.
import { describe, expect, inject, it, vi } from "vitest";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { guardedFetch, type GuardedFetchOptions } from "./guarded-fetch.ts";

type Route = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

function network(route: Route) {
  const requests: { url: string; redirect: RequestInit["redirect"] }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requests.push({ url: url.href, redirect: init?.redirect });
    // A real request yields to the event loop; so does this one, so a regression that loops
    // forever fails on the test timeout instead of starving every timer.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return route(url, init);
  }) as typeof fetch;
  return { requests, fetchImpl };
}

function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { location } });
}

// An endless body that records how far it was read and whether the reader gave up on it.
function endlessStream(chunkBytes: number) {
  const state = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulls++;
      controller.enqueue(new Uint8Array(chunkBytes).fill(state.pulls & 0xff));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error("the fetch succeeded");
}

const base: Omit<GuardedFetchOptions, "fetchImpl"> = { allowLoopback: false, maxBytes: 1024, timeoutMs: 5_000 };

describe("guardedFetch", () => {
  it("returns the body, its type and the final URL, asking fetch not to follow redirects", async () => {
    const body = Uint8Array.from({ length: 300 }, (_, i) => i % 251);
    const net = network(() => new Response(body, { headers: { "content-type": "image/png" } }));
    const result = await guardedFetch("https://img.example.com/a.png", { ...base, fetchImpl: net.fetchImpl });
    expect(result.bytes).toEqual(body);
    expect(result.contentType).toBe("image/png");
    expect(result.finalUrl).toBe("https://img.example.com/a.png");
    expect(net.requests).toEqual([{ url: "https://img.example.com/a.png", redirect: "manual" }]);
  });

  it("follows redirects, relative ones included, and reports where it ended", async () => {
    const net = network((url) => {
      if (url.pathname === "/start") return redirect("https://cdn.example.net/moved", 301);
      if (url.pathname === "/moved") return redirect("../final.jpg?v=2", 307);
      return new Response("jpeg bytes", { headers: { "content-type": "image/jpeg" } });
    });
    const result = await guardedFetch("https://example.com/start", { ...base, fetchImpl: net.fetchImpl });
    expect(new TextDecoder().decode(result.bytes)).toBe("jpeg bytes");
    expect(result.finalUrl).toBe("https://cdn.example.net/final.jpg?v=2");
    expect(net.requests.map((r) => r.url)).toEqual([
      "https://example.com/start",
      "https://cdn.example.net/moved",
      "https://cdn.example.net/final.jpg?v=2",
    ]);
  });

  it.each([
    ["http://10.0.0.5/internal", "private"],
    ["http://169.254.169.254/latest/meta-data/iam/", "metadata"],
    ["http://[::ffff:7f00:1]/", "loopback"],
    ["http://2130706433:8080/", "loopback"],
    ["http://localhost/admin", "loopback"],
    ["http://metadata.google.internal/computeMetadata/v1/", "internal_name"],
  ])("refuses a redirect to %s without requesting it", async (target, kind) => {
    const net = network((url) => (url.hostname === "example.com" ? redirect(target) : new Response("secret")));
    const problem = await problemOf(guardedFetch("https://example.com/a.jpg", { ...base, fetchImpl: net.fetchImpl }));
    expect(problem.slug).toBe("source_forbidden_address");
    expect(problem.extensions).toMatchObject({ address_class: kind, redirect_url: new URL(target).href });
    expect(problem.message).toMatch(/^redirect 1 to /);
    expect(net.requests).toHaveLength(1);
  });

  it("refuses a forbidden first URL without any request", async () => {
    const net = network(() => new Response("secret"));
    const problem = await problemOf(guardedFetch("http://192.168.1.1/", { ...base, fetchImpl: net.fetchImpl }));
    expect(problem.slug).toBe("source_forbidden_address");
    expect(net.requests).toHaveLength(0);
  });

  it("refuses a redirect to another scheme", async () => {
    const net = network(() => redirect("file:///etc/passwd"));
    const problem = await problemOf(guardedFetch("https://example.com/", { ...base, fetchImpl: net.fetchImpl }));
    expect(problem.slug).toBe("source_invalid_url");
    expect(net.requests).toHaveLength(1);
  });

  it("follows five redirects and refuses the sixth", async () => {
    const chain = (length: number) =>
      network((url) => {
        const n = Number(url.pathname.slice(1));
        return n < length ? redirect(`/${n + 1}`) : new Response("done");
      });
    const five = chain(5);
    expect((await guardedFetch("https://example.com/0", { ...base, fetchImpl: five.fetchImpl })).finalUrl).toBe("https://example.com/5");
    const six = chain(6);
    const problem = await problemOf(guardedFetch("https://example.com/0", { ...base, fetchImpl: six.fetchImpl }));
    expect(problem.slug).toBe("source_unreachable");
    expect(problem.extensions.reason).toBe("redirect_limit");
    expect(six.requests).toHaveLength(6);
  });

  it("stops an endless redirect loop", async () => {
    const net = network((url) => redirect(url.pathname === "/a" ? "/b" : "/a"));
    const problem = await problemOf(guardedFetch("https://example.com/a", { ...base, fetchImpl: net.fetchImpl, maxRedirects: 3 }));
    expect(problem.extensions.reason).toBe("redirect_limit");
    expect(net.requests).toHaveLength(4);
  });

  it("refuses a redirect without a usable Location", async () => {
    for (const response of [new Response(null, { status: 302 }), redirect("https://example.com/same")]) {
      const net = network(() => response);
      const problem = await problemOf(guardedFetch("https://example.com/same", { ...base, fetchImpl: net.fetchImpl }));
      expect(problem.extensions).toMatchObject({ reason: "bad_redirect", upstream_status: 302 });
    }
  });

  it.each([404, 403, 500, 503, 304])("turns an upstream %i into source_unreachable naming the status", async (status) => {
    const net = network(() => new Response(status === 304 ? null : "nope", { status }));
    const problem = await problemOf(guardedFetch("https://example.com/a.jpg", { ...base, fetchImpl: net.fetchImpl }));
    expect(problem.slug).toBe("source_unreachable");
    expect(problem.status).toBe(422);
    expect(problem.extensions).toMatchObject({ reason: "upstream_status", upstream_status: status });
    expect(problem.message).toContain(String(status));
  });

  it.each([
    [530, /could not be resolved \(DNS name not found\)/],
    [525, /failed the TLS handshake/],
    [522, /timed out while connecting/],
  ])("says what Cloudflare's %i for a host it could not reach means", async (status, meaning) => {
    const net = network(() => new Response("error page", { status }));
    const problem = await problemOf(guardedFetch("https://example.com/a.jpg", { ...base, fetchImpl: net.fetchImpl }));
    expect(problem.extensions).toMatchObject({ reason: "upstream_status", upstream_status: status });
    expect(problem.message).toMatch(meaning);
  });

  it("accepts a body of exactly maxBytes", async () => {
    const net = network(() => new Response(new Uint8Array(base.maxBytes).fill(7)));
    const result = await guardedFetch("https://example.com/a", { ...base, fetchImpl: net.fetchImpl });
    expect(result.bytes.byteLength).toBe(base.maxBytes);
  });

  it("stops reading an endless body at the cap and cancels it", async () => {
    const { stream, state } = endlessStream(100);
    const net = network(() => new Response(stream));
    const problem = await problemOf(guardedFetch("https://example.com/huge", { ...base, fetchImpl: net.fetchImpl }));
    expect(problem.slug).toBe("source_too_large");
    expect(problem.status).toBe(413);
    expect(problem.extensions.max_bytes).toBe(base.maxBytes);
    // 11 chunks of 100 bytes pass 1024; the source is not read much further than that.
    expect(state.pulls).toBeLessThanOrEqual(14);
    expect(state.cancelled).toBe(true);
  });

  it("refuses a declared Content-Length over the cap before reading", async () => {
    const { stream, state } = endlessStream(100);
    const net = network(() => new Response(stream, { headers: { "content-length": String(base.maxBytes + 1) } }));
    const problem = await problemOf(guardedFetch("https://example.com/huge", { ...base, fetchImpl: net.fetchImpl }));
    expect(problem.slug).toBe("source_too_large");
    expect(problem.message).toMatch(/declares 1025 bytes/);
    expect(state.cancelled).toBe(true);
  });

  it("gives up on a body that stalls, with the total timeout", async () => {
    const state = { cancelled: false };
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
      },
      cancel() {
        state.cancelled = true;
      },
    });
    const net = network(() => new Response(stalled));
    const problem = await problemOf(guardedFetch("https://example.com/slow", { ...base, timeoutMs: 50, fetchImpl: net.fetchImpl }));
    expect(problem.extensions.reason).toBe("timeout");
    expect(problem.message).toMatch(/did not finish within 50 ms/);
    expect(state.cancelled).toBe(true);
  });

  it("gives up on a server that never answers, with the connect timeout, and aborts the request", async () => {
    let signal: AbortSignal | undefined;
    const net = network((_url, init) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>(() => {});
    });
    const problem = await problemOf(
      guardedFetch("https://example.com/hang", { ...base, connectTimeoutMs: 30, fetchImpl: net.fetchImpl }),
    );
    expect(problem.extensions.reason).toBe("timeout");
    expect(problem.message).toMatch(/no response within 30 ms/);
    expect(signal?.aborted).toBe(true);
  });

  it("applies the total timeout across redirect hops", async () => {
    const net = network(async (url) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return redirect(url.pathname === "/a" ? "/b" : "/a");
    });
    const problem = await problemOf(
      guardedFetch("https://example.com/a", { ...base, timeoutMs: 50, maxRedirects: 1000, fetchImpl: net.fetchImpl }),
    );
    expect(problem.extensions.reason).toBe("timeout");
    expect(net.requests.length).toBeLessThan(1000);
  });
});

// Real hosts on loopback (workers/test-support/hostile-upstream.ts) and a name that cannot resolve:
// what the customer reads is the cause, never the platform's "internal error; reference = …".
describe("guardedFetch against a host that fails", () => {
  const hostile = inject("testHostileUpstream");
  const real: Omit<GuardedFetchOptions, "fetchImpl"> = { allowLoopback: true, maxBytes: 1 << 20, timeoutMs: 5_000 };

  async function failure(url: string, options: Partial<GuardedFetchOptions> = {}) {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const errors = vi.spyOn(console, "error");
    try {
      const problem = await problemOf(guardedFetch(url, { ...real, ...options }));
      expect(problem.slug).toBe("source_unreachable");
      expect(problem.message).not.toMatch(/internal error|reference =|proxy request/i);
      expect(errors).not.toHaveBeenCalled();
      return { problem, warnings: warned.mock.calls.map((args) => args.map(String).join(" ")) };
    } finally {
      warned.mockRestore();
      errors.mockRestore();
    }
  }

  it("says the body was cut short when the host closes before its Content-Length, and warns in one line", async () => {
    const { problem, warnings } = await failure(hostile.truncatedUrl);
    expect(problem.status).toBe(422);
    expect(problem.extensions.reason).toBe("truncated");
    expect(problem.message).toMatch(/closed the connection after 100 bytes of the 4096 it declared: the body was cut short/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain("\n");
    expect(warnings[0]).toMatch(/^source unreachable \(truncated\): /);
  });

  it("says a connection was refused", async () => {
    const { problem, warnings } = await failure(hostile.refusedUrl);
    expect(problem.extensions.reason).toBe("refused");
    expect(problem.message).toMatch(/^127\.0\.0\.1:\d+ could not be reached: .*refused the connection/);
    expect(warnings).toHaveLength(1);
  });

  it("says a DNS name was not found", async () => {
    const { problem } = await failure("http://no-such-host.invalid/a.png");
    expect(problem.extensions.reason).toBe("dns");
    expect(problem.message).toBe("no-such-host.invalid could not be reached: no-such-host.invalid: DNS name not found");
  });

  it("says the TLS handshake failed", async () => {
    const { problem } = await failure(hostile.tlsMismatchUrl);
    expect(problem.extensions.reason).toBe("tls");
    expect(problem.message).toMatch(/the TLS handshake failed/);
  });

  it("says a host that never answers timed out", async () => {
    const { problem } = await failure(hostile.silentUrl, { connectTimeoutMs: 200 });
    expect(problem.extensions.reason).toBe("timeout");
    expect(problem.message).toMatch(/sent no response within 200 ms/);
  });
});
