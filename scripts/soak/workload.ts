// The mixed workload: each of `concurrency` loops owns an API key (rate limits are per key) and
// walks a fixed rotation of what customers do, until the run's end. Inputs are generated (photo-
// like JPEGs, PNGs, a PDF with a placed photo), so the soak needs nothing outside the repository.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { generatedFile } from "../../test/fixtures/generated-files.ts";
import { SoakClient, type Call } from "./client.ts";

export interface WorkloadInputs {
  photoBase64: string;
  smallPngBase64: string;
  pdfBase64: string;
  photoBytes: Uint8Array;
}

export interface AcceptedJob {
  jobId: string;
  op: string;
  acceptedAt: number;
  redelivered: boolean;
}

export interface LoopContext {
  edgeUrl: string;
  webhookUrl: string;
  webhookSecret: string;
  inputs: WorkloadInputs;
  /** Source files (uploaded photos) URL transforms read, and the key id that addresses them. */
  transformFiles: string[];
  transformKeyId: string;
  /** Whether an async job's message is sent a second time through the queue right now. */
  duplicateDeliveries: () => boolean;
  /** When loops stop starting requests; retries of a started one may run until `hardStop`. */
  stopAt: number;
  hardStop: number;
}

export interface LoopLog {
  client: SoakClient;
  jobs: AcceptedJob[];
  /** SHA-256 (hex) of every output the client received inline or downloaded. */
  outputDigests: string[];
  /** Outputs that did not decode as what they claim to be. */
  badOutputs: string[];
}

const SYNC_TIMEOUT_MS = 8_000;
const TRANSFORM_MISS_WIDTHS = 40;

export async function makeInputs(): Promise<WorkloadInputs> {
  const photo = await generatedFile("landscape-1.jpg");
  const smallPng = await sharp(await generatedFile("rgb.png")).png().toBuffer();
  const pdf = await generatedFile("photo-placed-small.pdf");
  return {
    photoBase64: Buffer.from(photo).toString("base64"),
    smallPngBase64: smallPng.toString("base64"),
    pdfBase64: Buffer.from(pdf).toString("base64"),
    photoBytes: photo,
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function checkImage(log: LoopLog, what: string, bytes: Buffer) {
  log.outputDigests.push(sha256(bytes));
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.width || !meta.height) log.badOutputs.push(`${what}: no dimensions`);
    await sharp(bytes).raw().toBuffer();
  } catch (error) {
    log.badOutputs.push(`${what}: ${String(error)}`);
  }
}

/** Presigned upload of `bytes` as a source file; its file_id. */
export async function uploadSource(client: SoakClient, bytes: Uint8Array, contentType: string, hardStop: number): Promise<string | null> {
  const created = await client.call("upload.create", "/v1/uploads", {
    json: { filename: "soak.jpg", content_type: contentType, size_bytes: bytes.length },
    timeoutMs: SYNC_TIMEOUT_MS,
  });
  if (created.status !== 201) return null;
  const { file_id, upload } = created.body as { file_id: string; upload: { url: string; method: string } };
  for (let attempt = 0; attempt < 3 && Date.now() < hardStop; attempt++) {
    try {
      const put = await fetch(upload.url, { method: upload.method, headers: { "Content-Type": contentType }, body: bytes, signal: AbortSignal.timeout(SYNC_TIMEOUT_MS) });
      await put.body?.cancel();
      if (put.ok) break;
    } catch {
      // retried below
    }
  }
  const completed = await client.call("upload.complete", `/v1/uploads/${file_id}/complete`, { method: "POST", timeoutMs: SYNC_TIMEOUT_MS });
  return completed.status === 200 ? file_id : null;
}

/** One loop's rotation: sync optimize, transform hit and miss, a purge now and then, batch sync and async, PDF and optimize jobs, xlsx, upload + ack. */
export async function runLoop(index: number, client: SoakClient, ctx: LoopContext): Promise<LoopLog> {
  const log: LoopLog = { client, jobs: [], outputDigests: [], badOutputs: [] };
  const webhook = { url: ctx.webhookUrl, secret: ctx.webhookSecret };
  const { inputs } = ctx;
  let step = 0;
  let misses = 0;
  // One async job in flight per loop, as a client that waits for its job before sending the next:
  // the local queue consumer runs one message at a time, and an unbounded backlog would measure
  // the backlog, not the guarantees.
  let pendingJob: string | null = null;
  const jobSlotFree = async () => {
    if (pendingJob === null) return true;
    const view = await client.call("jobs.get", `/v1/jobs/${pendingJob}`, { timeoutMs: SYNC_TIMEOUT_MS });
    const status = (view.body as { status?: string } | null)?.status;
    if (status !== "succeeded" && status !== "failed" && status !== "cancelled") return false;
    pendingJob = null;
    return true;
  };

  const accept = async (call: Call) => {
    if (call.status !== 202) return;
    const jobId = (call.body as { job_id: string }).job_id;
    pendingJob = jobId;
    const job: AcceptedJob = { jobId, op: call.op, acceptedAt: call.attempts.at(-1)!.ended, redelivered: false };
    log.jobs.push(job);
    if (ctx.duplicateDeliveries()) {
      const res = await fetch(`${ctx.edgeUrl}/__dev/jobs/${jobId}/redeliver`, { method: "POST", signal: AbortSignal.timeout(5_000) }).catch(() => null);
      job.redelivered = res?.status === 202;
    }
  };

  const operations: (() => Promise<void>)[] = [
    async () => {
      const call = await client.call("image.optimize.sync", "/v1/image/optimize", {
        json: { source: { base64: inputs.photoBase64 }, options: { width: 800, format: "jpeg", output: "both" } },
        timeoutMs: SYNC_TIMEOUT_MS,
      });
      if (call.status === 200) {
        const body = call.body as { base64: string; file_id: string };
        await checkImage(log, "optimize", Buffer.from(body.base64, "base64"));
        // Half the results are acked at once, as a client that copied them away would.
        if (step % 2 === 0) await client.call("files.ack", `/v1/files/${body.file_id}/ack`, { method: "POST", timeoutMs: SYNC_TIMEOUT_MS });
      }
    },
    async () => {
      const file = ctx.transformFiles[index % ctx.transformFiles.length]!;
      const call = await client.call("image.transform.hit", `/v1/image/t/${ctx.transformKeyId}/w_320,f_webp/${file}`, { auth: false, timeoutMs: SYNC_TIMEOUT_MS, raw: true });
      if (call.status === 200 && call.bytes) await checkImage(log, "transform hit", call.bytes);
    },
    async () => {
      const file = ctx.transformFiles[(index + misses) % ctx.transformFiles.length]!;
      const width = 100 + ((index * TRANSFORM_MISS_WIDTHS + misses++) % TRANSFORM_MISS_WIDTHS) * 7;
      const call = await client.call("image.transform.miss", `/v1/image/t/${ctx.transformKeyId}/w_${width},f_jpg,q_70/${file}`, { auth: false, timeoutMs: SYNC_TIMEOUT_MS, raw: true });
      if (call.status === 200 && call.bytes) await checkImage(log, "transform miss", call.bytes);
    },
    async () => {
      // An ordinary purge now and then: the file's derivatives go, and the books must excuse
      // their charges (computing them again is never charged again).
      if (step % 5 !== 0) return;
      const file = ctx.transformFiles[(index + misses) % ctx.transformFiles.length]!;
      await client.call("files.purge", "/v1/purge", { json: { files: [file] }, timeoutMs: SYNC_TIMEOUT_MS });
    },
    async () => {
      const call = await client.call("image.batch.sync", "/v1/image/batch", {
        json: {
          images: [
            { ref: "photo", source: { base64: inputs.photoBase64 } },
            { ref: "png", source: { base64: inputs.smallPngBase64 } },
          ],
          options: { width: 400, output: "base64" },
        },
        timeoutMs: SYNC_TIMEOUT_MS * 2,
      });
      if (call.status === 200) {
        for (const item of (call.body as { results: { ref: string; base64?: string }[] }).results) {
          if (item.base64) await checkImage(log, `batch ${item.ref}`, Buffer.from(item.base64, "base64"));
        }
      }
    },
    async () => {
      if (!(await jobSlotFree())) return;
      await accept(
        await client.call("pdf.compress.async", "/v1/pdf/compress", {
          json: { source: { base64: inputs.pdfBase64 }, options: { profile: "screen" }, mode: "async", webhook },
          timeoutMs: SYNC_TIMEOUT_MS,
        }),
      );
    },
    async () => {
      const call = await client.call("xlsx.generate.sync", "/v1/xlsx/generate", {
        json: {
          filename: "soak.xlsx",
          sheets: [{ name: "Data", columns: [{ key: "n", header: "N", type: "number" }, { key: "s", header: "S", type: "string" }], rows: Array.from({ length: 200 }, (_, i) => [i, `row ${i}`]) }],
        },
        timeoutMs: SYNC_TIMEOUT_MS,
      });
      if (call.status === 200) log.outputDigests.push(sha256(Buffer.from(JSON.stringify(call.body))));
    },
    async () => {
      if (!(await jobSlotFree())) return;
      await accept(
        await client.call("image.batch.async", "/v1/image/batch", {
          json: {
            images: [
              { ref: "a", source: { base64: inputs.photoBase64 } },
              { ref: "b", source: { base64: inputs.smallPngBase64 } },
            ],
            options: { width: 600, format: "webp" },
            mode: "async",
            webhook,
          },
          timeoutMs: SYNC_TIMEOUT_MS,
        }),
      );
    },
    async () => {
      if (!(await jobSlotFree())) return;
      const fileId = await uploadSource(client, inputs.photoBytes, "image/jpeg", ctx.hardStop);
      if (!fileId) return;
      await accept(
        await client.call("image.optimize.async", "/v1/image/optimize", {
          json: { source: { file_id: fileId }, options: { width: 1000, format: "avif" }, mode: "async", webhook },
          timeoutMs: SYNC_TIMEOUT_MS,
        }),
      );
    },
    async () => {
      const fileId = await uploadSource(client, inputs.photoBytes, "image/jpeg", ctx.hardStop);
      if (fileId) await client.call("files.ack", `/v1/files/${fileId}/ack`, { method: "POST", timeoutMs: SYNC_TIMEOUT_MS });
    },
  ];

  while (Date.now() < ctx.stopAt) {
    // Loops start at different points of the rotation so the mix is even at every moment.
    await operations[(index * 3 + step) % operations.length]!();
    step++;
  }
  return log;
}

/** The ordinary loops' keys (one each, so each loop has its own rate limit) and transform sources, made through the API as a client would. */
export async function ordinaryLoopSetup(admin: SoakClient, photoBytes: Uint8Array, loops: number, keyName: string): Promise<{ keys: { key_id: string; secret: string }[]; transformFiles: string[] }> {
  const keys: { key_id: string; secret: string }[] = [];
  for (let i = 0; i < loops; i++) {
    const created = await admin.call("keys.create", "/v1/keys", { json: { name: `${keyName}-${i}` }, timeoutMs: 30_000 });
    if (created.status !== 201) throw new Error(`creating key ${i}: ${created.status}`);
    keys.push(created.body as { key_id: string; secret: string });
  }
  const transformFiles: string[] = [];
  for (let i = 0; i < loops; i++) {
    const fileId = await uploadSource(admin, photoBytes, "image/jpeg", Date.now() + 60_000);
    if (!fileId) throw new Error("uploading a transform source failed");
    transformFiles.push(fileId);
  }
  return { keys, transformFiles };
}
