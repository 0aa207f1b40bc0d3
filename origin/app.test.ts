import { describe, expect, it } from "vitest";
import { ORIGIN_SECRET_HEADER } from "../contracts/origin/framing.ts";
import { createOriginApp } from "./app.ts";

describe("origin app", () => {
  const app = createOriginApp({ secret: "s3cret" });

  it("serves /healthz without the secret", async () => {
    const res = await app.request("/healthz");
    expect(res.status).toBe(200);
    const health = (await res.json()) as { status: string; rss_bytes: number };
    expect(health.status).toBe("ok");
    expect(health.rss_bytes).toBeGreaterThan(10 * 1024 * 1024);
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
