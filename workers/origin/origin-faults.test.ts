// The edge against an origin that dies, restarts or has its reply damaged on the way: the fake
// container in front of the real test origin fails as the soak's faults do (bench:soak found each).
import { env } from "cloudflare:test";
import { fileShardRows } from "../test-support/shard-rows.ts";
import { describe, expect, it, vi } from "vitest";
import { storeFile } from "../files/file-store.ts";
import { derivativeCount } from "../test-support/derivative-count.ts";
import { encodeBase64 } from "../../contracts/encoding/base64.ts";
import type { Bindings } from "../env.ts";
import { problemOf, seedCaller } from "../test-support/api.ts";
import { fetchWithEnv } from "../test-support/app-with-env.ts";
import { generatedBytes } from "../test-support/generated-file.ts";
import { balanceOf } from "../test-support/account-books.ts";

type Fault = (forward: () => Promise<Response>) => Promise<Response>;

/** An origin reached through the Containers binding whose n-th call (1-based) goes through `faults[n-1]`, then straight through. */
function originWithFaults(faults: Fault[]): { bindings: Partial<Bindings>; calls: () => number } {
  let calls = 0;
  const container = {
    fetch: async (request: Request) => {
      const body = await request.arrayBuffer();
      const forward = () => fetch(new URL(new URL(request.url).pathname, env.ORIGIN_URL), { method: request.method, headers: request.headers, body });
      const fault = faults[calls++];
      return fault ? fault(forward) : forward();
    },
  };
  const namespace = { idFromName: () => ({}), get: () => container };
  return { bindings: { ORIGIN_URL: "", ORIGIN_CONTAINER: namespace as unknown as Bindings["ORIGIN_CONTAINER"] }, calls: () => calls };
}

const connectionReset: Fault = () => Promise.reject(new TypeError("Network connection lost."));

async function optimize(bindings: Partial<Bindings>, output: "url" | "base64" = "url") {
  const caller = await seedCaller({ balanceMicros: 10_000 });
  const photo = await generatedBytes("landscape-3.jpg");
  const res = await fetchWithEnv(
    bindings,
    new Request("http://api.test/v1/image/optimize", {
      method: "POST",
      headers: { Authorization: `Bearer ${caller.secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ source: { base64: encodeBase64(photo) }, options: { width: 120, format: "jpeg", output } }),
    }),
  );
  return { caller, res };
}

async function storedFiles(accountId: string): Promise<number> {
  const [row] = await fileShardRows<{ n: number }>(accountId, "SELECT COUNT(*) AS n FROM files WHERE kind = 'result' AND status != 'deleted'");
  const objects = await env.FILES.list({ prefix: `accounts/${accountId}/` });
  return row!.n + objects.objects.length;
}

describe("an origin that died or is restarting", () => {
  it("is tried once more: a reset connection, then a good answer, is a 200 charged once", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const origin = originWithFaults([connectionReset]);
    const { caller, res } = await optimize(origin.bindings);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(origin.calls()).toBe(2);
    expect(await balanceOf(caller.accountId)).toBe(10_000 - 800);
    logged.mockRestore();
  });

  it("is tried once more after its draining 503, then answers", async () => {
    const origin = originWithFaults([async (forward) => {
      await (await forward()).body?.cancel();
      return new Response(JSON.stringify({ type: "https://pixelpress.dev/problems/origin_unavailable", title: "x", status: 503, detail: "draining" }), {
        status: 503,
        headers: { "Content-Type": "application/problem+json", "Retry-After": "2" },
      });
    }]);
    const { res } = await optimize(origin.bindings);
    expect(res.status).toBe(200);
    expect(origin.calls()).toBe(2);
  });

  it("still down on the second try: 503 origin_unavailable with Retry-After, not charged", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const origin = originWithFaults([connectionReset, connectionReset]);
    const { caller, res } = await optimize(origin.bindings);
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("5");
    expect((await problemOf(res)).type).toMatch(/origin_unavailable$/);
    expect(origin.calls()).toBe(2);
    expect(await balanceOf(caller.accountId)).toBe(10_000);
    logged.mockRestore();
  });
});

const flipOutputByte: Fault = async (forward) => {
  const res = await forward();
  const bytes = new Uint8Array(await res.arrayBuffer());
  bytes[bytes.length - 100]! ^= 0x5a;
  return new Response(bytes, { status: res.status, headers: res.headers });
};

describe("a framed reply damaged on the way", () => {
  // Inline output is buffered, a URL output streams into R2: either way the damage is found at the
  // payload's end, before anything is kept, and reaches the client as the origin's fault.
  it.each([
    ["base64", 502],
    ["url", 502],
  ] as const)("is refused and never stored or charged (output: %s, %i)", async (output, status) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { caller, res } = await optimize(originWithFaults([flipOutputByte]).bindings, output);
    expect(res.status, await res.clone().text()).toBe(status);
    expect(logged.mock.calls.flat().map(String).join(" ")).toContain("Content-Digest said");
    expect(await storedFiles(caller.accountId)).toBe(0);
    expect(await balanceOf(caller.accountId)).toBe(10_000);
    logged.mockRestore();
  });
});

describe("a transform miss whose origin reply is damaged", () => {
  it("is a 502 with no derivative kept and nothing charged", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const caller = await seedCaller({ balanceMicros: 10_000 });
    const photo = await generatedBytes("landscape-3.jpg");
    const file = await storeFile(env, { accountId: caller.accountId, kind: "source", body: photo, size: photo.byteLength, contentType: "image/jpeg", expiresAt: Date.now() + 3_600_000 });
    // fit_contain pads to the box, which only the origin does.
    const path = `/v1/image/t/${caller.keyId}/w_200,h_200,fit_contain,f_webp/${file.id}`;
    const res = await fetchWithEnv(originWithFaults([flipOutputByte]).bindings, new Request(`http://api.test${path}`));
    expect(res.status, await res.clone().text()).toBe(502);
    expect(await derivativeCount(env, caller.accountId, file.id)).toBe(0);
    expect(await balanceOf(caller.accountId)).toBe(10_000);
    logged.mockRestore();
  });
});
