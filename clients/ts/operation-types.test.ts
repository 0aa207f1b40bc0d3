// The call's shape decides its type: these assertions are checked by `npm run typecheck` (tsc over
// clients/ts), and the runtime half checks that a sync call without `wait` is given the result.
import { describe, expect, expectTypeOf, it } from "vitest";
import { createPixelPress } from "./client.ts";
import type { JobAccepted, OperationResult, RequestBody } from "./operation-types.ts";

type Optimized = OperationResult<"/v1/image/optimize">;
const body = { source: { url: "https://images.example.com/a.jpg" } } satisfies RequestBody<"/v1/image/optimize">;

function clientAnswering(status: number, answer: unknown) {
  return createPixelPress({
    apiKey: "ak_live_test",
    baseUrl: "https://api.example.com",
    retry: { retries: 0 },
    fetch: () => Promise.resolve(new Response(JSON.stringify(answer), { status, headers: { "Content-Type": "application/json" } })),
  });
}

describe("operation call types", () => {
  const client = clientAnswering(200, { format: "webp" });

  it("types a call without mode as its result, and an async call as the accepted job", () => {
    expectTypeOf(client.image.optimize(body)).resolves.toEqualTypeOf<Optimized>();
    expectTypeOf(client.image.optimize({ ...body, mode: "sync" })).resolves.toEqualTypeOf<Optimized>();
    expectTypeOf(client.image.optimize({ ...body, mode: "async" })).resolves.toEqualTypeOf<JobAccepted>();
    expectTypeOf(client.image.optimize({ ...body, mode: "async" }, { wait: true })).resolves.toEqualTypeOf<Optimized>();
  });

  it("types a mode known only at run time as either", () => {
    const mode: "sync" | "async" = Date.now() < 0 ? "async" : "sync";
    expectTypeOf(client.image.optimize({ ...body, mode })).resolves.toEqualTypeOf<Optimized | JobAccepted>();
  });

  it("resolves a sync call with the body the API answered", async () => {
    await expect(client.image.optimize(body)).resolves.toEqual({ format: "webp" });
    const accepted = { job_id: "job_Q2n7bT0kRz4Lw9Xc1Vd8", status: "queued", status_url: "/v1/jobs/job_Q2n7bT0kRz4Lw9Xc1Vd8" };
    await expect(clientAnswering(202, accepted).image.optimize({ ...body, mode: "async" })).resolves.toEqual(accepted);
  });
});
