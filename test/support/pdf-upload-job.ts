// A client's whole path for a large PDF through the running pair: presigned upload from disk,
// an async compress job by file_id, polling until it ends, and the output streamed to disk.
// Shared by the large-file e2e test and the bench so both measure the same thing.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { components } from "../../clients/ts/api-types.ts";
import type { PdfCompressOptionsInput } from "../../contracts/pdf-options.ts";
import type { PdfCompressResult } from "../../workers/operations/pdf-compress.ts";
import { waitFor } from "./loopback-server.ts";

interface JobView {
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  result?: PdfCompressResult;
  error?: { type: string; detail?: string; status: number };
}

export interface PdfJobRun extends JobView {
  jobId: string;
  uploadMs: number;
  /** From the compress request to the job's end, as the client sees it by polling. */
  jobMs: number;
}

type CreatedUpload = components["schemas"]["CreatedUpload"];

const POLL_TIMEOUT_MS = 15 * 60_000;

async function json<T>(res: Response, expected: number, what: string): Promise<T> {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return (await res.json());
}

/** Uploads the file (streamed from disk) and returns its file_id once the upload is complete. */
async function uploadPdf(edgeUrl: string, apiKey: string, file: string): Promise<string> {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const size = fs.statSync(file).size;
  const created = await json<CreatedUpload>(
    await fetch(`${edgeUrl}/v1/uploads`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ filename: path.basename(file), content_type: "application/pdf", size_bytes: size }),
    }),
    201,
    "create upload",
  );
  // A file-backed Blob gives fetch the exact Content-Length the signature locks, without reading the file into memory.
  const body = await fs.openAsBlob(file, { type: "application/pdf" });
  const put = await fetch(created.upload.url, { method: created.upload.method, headers: { "Content-Type": "application/pdf" }, body });
  if (put.status !== 200) throw new Error(`presigned PUT: ${put.status} ${await put.text()}`);
  await json(await fetch(`${edgeUrl}/v1/uploads/${created.file_id}/complete`, { method: "POST", headers: auth }), 200, "complete upload");
  return created.file_id;
}

/** Presigned upload, then `mode: "async"` compress by file_id, polled to its end. */
export async function compressPdfByUploadJob(edgeUrl: string, apiKey: string, file: string, options: PdfCompressOptionsInput): Promise<PdfJobRun> {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const uploadStarted = performance.now();
  const fileId = await uploadPdf(edgeUrl, apiKey, file);
  const uploadMs = performance.now() - uploadStarted;
  const jobStarted = performance.now();
  const accepted = await json<{ job_id: string }>(
    await fetch(`${edgeUrl}/v1/pdf/compress`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ source: { file_id: fileId }, options, mode: "async" }),
    }),
    202,
    "submit compress job",
  );
  const job = await waitFor(
    async () => {
      const view = await json<JobView>(await fetch(`${edgeUrl}/v1/jobs/${accepted.job_id}`, { headers: auth }), 200, "poll job");
      return view.status === "queued" || view.status === "running" ? undefined : view;
    },
    POLL_TIMEOUT_MS,
    `compress job ${accepted.job_id}`,
  );
  return { ...job, jobId: accepted.job_id, uploadMs, jobMs: performance.now() - jobStarted };
}

/** Streams a signed download URL to a file; returns its size. */
export async function downloadTo(url: string, file: string): Promise<number> {
  const res = await fetch(url);
  if (res.status !== 200 || res.body === null) throw new Error(`download: ${res.status} ${await res.text()}`);
  await pipeline(Readable.fromWeb(res.body as NodeReadableStream<Uint8Array>), fs.createWriteStream(file));
  return fs.statSync(file).size;
}
