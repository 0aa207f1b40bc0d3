import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { verifyWebhook } from "../contracts/webhooks/signature.ts";
import { generatedFile } from "./fixtures/generated-files.ts";
import { startLoopbackServer, waitFor } from "./support/loopback-server.ts";

const edge = inject("edgeUrl");
const auth = { Authorization: `Bearer ${inject("apiKey")}`, "Content-Type": "application/json" };
const photo = await generatedFile("portrait-5.jpg");

let customer: Awaited<ReturnType<typeof startLoopbackServer>>;
beforeAll(async () => {
  customer = await startLoopbackServer({ "/photo.jpg": photo }, [500]);
});
afterAll(() => customer.close());

describe("async image job through the running pair", () => {
  it("fetches a URL source, runs on the real queue, retries the webhook after a 500, and serves the result", async () => {
    const submitted = await fetch(`${edge}/v1/image/optimize`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        source: { url: `${customer.url}/photo.jpg` },
        options: { width: 240, format: "webp" },
        mode: "async",
        webhook: { url: `${customer.url}/hook` },
      }),
    });
    expect(submitted.status).toBe(202);
    const accepted = await submitted.json<{ job_id: string; webhook_secret: string }>();

    const job = await waitFor(
      async () => {
        const res = await fetch(`${edge}/v1/jobs/${accepted.job_id}`, { headers: auth });
        const body = await res.json<{ status: string; result?: { url: string; width: number; height: number; stats: { orientation_applied: number } } }>();
        return ["succeeded", "failed"].includes(body.status) ? body : undefined;
      },
      90_000,
      "the job to finish",
    );
    expect(job.status).toBe("succeeded");
    expect(job.result).toMatchObject({ width: 240, stats: { orientation_applied: 5 } });

    const output = new Uint8Array(await (await fetch(job.result!.url)).arrayBuffer());
    const meta = await sharp(output).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 240, job.result!.height]);
    expect(meta.height).toBeGreaterThan(meta.width);

    const deliveries = await waitFor(() => (customer.received.length >= 2 ? customer.received : undefined), 60_000, "two webhook attempts");
    expect(deliveries[0]!.headers["webhook-id"]).toBe(deliveries[1]!.headers["webhook-id"]);
    const last = deliveries[1]!;
    await verifyWebhook({ headers: last.headers, body: last.body, secret: accepted.webhook_secret });
    expect(JSON.parse(last.body)).toMatchObject({ type: "job.succeeded", data: { job_id: accepted.job_id, status: "succeeded" } });

    const seen = await (await fetch(`${edge}/v1/jobs/${accepted.job_id}`, { headers: auth })).json<{
      webhook: { deliveries: { outcome: string; response_status: number }[] };
    }>();
    expect(seen.webhook.deliveries.map((d) => [d.outcome, d.response_status])).toEqual([["failed", 500], ["delivered", 200]]);
  });
});
