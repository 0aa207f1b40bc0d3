import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startLoopbackServer, waitFor } from "./support/loopback-server.ts";

// A public URL may carry an escape that does not decode (`100%.jpg`, `%ZZ.jpg`). The file name
// the service derives from it must never fail the request: sync, each batch item, and async.
const edge = inject("edgeUrl");
const auth = { Authorization: `Bearer ${inject("apiKey")}`, "Content-Type": "application/json" };

let customer: Awaited<ReturnType<typeof startLoopbackServer>>;
beforeAll(async () => {
  const photo = new Uint8Array(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 30 } } }).jpeg().toBuffer(),
  );
  customer = await startLoopbackServer({ "/100%.jpg": photo, "/%ZZ.jpg": photo });
});
afterAll(() => customer.close());

async function post(path: string, body: unknown) {
  const res = await fetch(`${edge}${path}`, { method: "POST", headers: auth, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json<Record<string, unknown>>() };
}

async function storedName(fileId: string): Promise<string> {
  const res = await fetch(`${edge}/v1/files/${fileId}`, { headers: auth });
  return (await res.json<{ filename: string }>()).filename;
}

describe("URL sources whose path does not percent-decode", () => {
  it("optimizes synchronously and names the output after the raw segment", async () => {
    const answer = await post("/v1/image/optimize", { source: { url: `${customer.url}/100%.jpg` }, options: { width: 32, format: "png" } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ format: "png", width: 32 });
    expect(await storedName(answer.body.file_id as string)).toBe("100%.png");
  });

  it("succeeds for every item of a batch", async () => {
    const answer = await post("/v1/image/batch", {
      images: [
        { ref: "percent", source: { url: `${customer.url}/100%.jpg` } },
        { ref: "bad-escape", source: { url: `${customer.url}/%ZZ.jpg` } },
      ],
      options: { width: 32, format: "png" },
    });
    expect(answer.status).toBe(200);
    const results = answer.body.results as { ref: string; status: string }[];
    expect(results.map((r) => [r.ref, r.status])).toEqual([
      ["percent", "ok"],
      ["bad-escape", "ok"],
    ]);
  });

  it("accepts an async job and runs it to success", async () => {
    const answer = await post("/v1/image/optimize", { source: { url: `${customer.url}/%ZZ.jpg` }, options: { width: 32, format: "png" }, mode: "async" });
    expect(answer.status).toBe(202);
    const job = await waitFor(
      async () => {
        const res = await fetch(`${edge}/v1/jobs/${answer.body.job_id as string}`, { headers: auth });
        const body = await res.json<{ status: string; result?: { file_id: string } }>();
        return ["succeeded", "failed"].includes(body.status) ? body : undefined;
      },
      90_000,
      "the job to finish",
    );
    expect(job.status).toBe("succeeded");
    expect(await storedName(job.result!.file_id)).toBe("%ZZ.png");
  });
});
