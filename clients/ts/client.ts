import createClient from "openapi-fetch";
import { PixelPressError, problemOf } from "./api-error.ts";
import type { components, paths } from "./api-types.ts";
import { pollJob, type PollOptions } from "./job-polling.ts";
import type { CallOptions, Job, JobAccepted, JobResult, OperationPath, Products } from "./operation-types.ts";
import { createRetryingFetch, DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retrying-fetch.ts";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

export interface ClientOptions {
  apiKey: string;
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  poll?: Omit<PollOptions, "signal" | "onProgress">;
  fetch?: typeof fetch;
}

type Upload = components["schemas"]["File"];
type StoredFile = components["schemas"]["File"];
type CreateFileRequest = components["schemas"]["CreateFileRequest"];
type FileList = components["schemas"]["FileList"];

export interface FilesApi {
  /** POST /v1/files: stores a source; `expires_at: null` keeps it until deleted (durable, metered daily). */
  create(body: CreateFileRequest, options?: Pick<CallOptions, "idempotencyKey" | "signal">): Promise<StoredFile>;
  /** GET /v1/files: one page, newest first; pass `next_cursor` back as `cursor` for the next. */
  list(query?: { limit?: number; cursor?: string }): Promise<FileList>;
  /** PATCH /v1/files/{file_id}: `null` makes the file durable, a time gives it an end. */
  update(fileId: string, body: { expires_at: string | null }): Promise<StoredFile>;
}

type Preset = components["schemas"]["Preset"];
type PurgeCounts = components["schemas"]["PurgeCounts"];

export interface PresetsApi {
  /** POST /v1/presets: names a transform for `t_<name>` (or `preset: "<name>"` in the URL builder); a name in use is pointed at the new one and what the old one made is purged. */
  put(name: string, transform: string): Promise<{ preset: Preset; purged: PurgeCounts | null }>;
  /** GET /v1/presets: every preset of the account, by name. */
  list(): Promise<Preset[]>;
  /** DELETE /v1/presets/{name}: its URLs are refused from then on, and what it made is purged. */
  delete(name: string): Promise<{ preset: Preset; purged: PurgeCounts }>;
}

export interface PixelPressClient {
  /** The typed openapi-fetch client underneath, for any endpoint; it shares the retries. */
  http: ReturnType<typeof createClient<paths>>;
  /** POST /v1/{product}/{operation}; the named helpers (`client.image.optimize`) call this. */
  run<P extends OperationPath>(path: P, body: unknown, options?: CallOptions): Promise<unknown>;
  job(jobId: string): Promise<Job>;
  /** Resolves with the job's result, one operation's body; `client.<product>.<operation>(…, { wait: true })` types it for that operation. */
  waitForJob(jobId: string, options?: PollOptions): Promise<JobResult>;
  account(): Promise<components["schemas"]["Account"]>;
  /** Stores bytes through a presigned upload; use the file id as `source: { file_id }`. */
  upload(bytes: Uint8Array<ArrayBuffer>, file: { contentType: string; filename?: string; expiresAt?: string | null }): Promise<Upload>;
  files: FilesApi;
  presets: PresetsApi;
}

function isJobAccepted(response: Response, body: unknown): body is JobAccepted {
  return response.status === 202 && typeof body === "object" && body !== null && "job_id" in body;
}

export function createPixelPress(options: ClientOptions): PixelPressClient & Products {
  const retryingFetch = createRetryingFetch({ ...DEFAULT_RETRY_POLICY, ...options.retry }, options.fetch);
  const http = createClient<paths>({
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/$/, ""),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch,
  });

  function unwrap<T>({ data, error, response }: { data?: T; error?: unknown; response: Response }): T {
    if (!response.ok) throw new PixelPressError(problemOf(error, response));
    return data as T;
  }

  const base: PixelPressClient = {
    http,
    async run(path, body, callOptions = {}) {
      const headers = callOptions.idempotencyKey ? { "Idempotency-Key": callOptions.idempotencyKey } : {};
      // The path is one of the spec's operations, but which one is only known at run time.
      const post = http.POST as (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const answer = await post(path, { body, headers, signal: callOptions.signal });
      const data = unwrap(answer);
      if (callOptions.wait && isJobAccepted(answer.response, data)) {
        return base.waitForJob(data.job_id, { ...options.poll, signal: callOptions.signal, onProgress: callOptions.onProgress });
      }
      return data;
    },
    async job(jobId) {
      return unwrap(await http.GET("/v1/jobs/{job_id}", { params: { path: { job_id: jobId } } }));
    },
    waitForJob(jobId, pollOptions = {}) {
      return pollJob((id) => base.job(id), jobId, { ...options.poll, ...pollOptions });
    },
    async account() {
      return unwrap(await http.GET("/v1/account"));
    },
    async upload(bytes, file) {
      const created = unwrap(
        await http.POST("/v1/uploads", {
          body: { content_type: file.contentType, size_bytes: bytes.byteLength, filename: file.filename, ...(file.expiresAt !== undefined ? { expires_at: file.expiresAt } : {}) },
        }),
      );
      const put = await retryingFetch(new Request(created.upload.url, { method: "PUT", headers: created.upload.headers, body: bytes }));
      if (!put.ok) throw new PixelPressError(problemOf(await put.text(), put));
      return unwrap(await http.POST("/v1/uploads/{file_id}/complete", { params: { path: { file_id: created.file_id } } }));
    },
    files: {
      async create(body, callOptions = {}) {
        const headers = callOptions.idempotencyKey ? { "Idempotency-Key": callOptions.idempotencyKey } : {};
        return unwrap(await http.POST("/v1/files", { body, headers, signal: callOptions.signal }));
      },
      async list(query = {}) {
        return unwrap(await http.GET("/v1/files", { params: { query } }));
      },
      async update(fileId, body) {
        return unwrap(await http.PATCH("/v1/files/{file_id}", { params: { path: { file_id: fileId } }, body }));
      },
    },
    presets: {
      async put(name, transform) {
        return unwrap(await http.POST("/v1/presets", { body: { name, transform } }));
      },
      async list() {
        return unwrap(await http.GET("/v1/presets")).data;
      },
      async delete(name) {
        return unwrap(await http.DELETE("/v1/presets/{name}", { params: { path: { name } } }));
      },
    },
  };

  // `client.<product>.<operation>(body, options)` for every operation path, present or future.
  const product = (name: string) =>
    new Proxy({}, { get: (_, operation) => (typeof operation === "string" ? (body: unknown, callOptions?: CallOptions) => base.run(`/v1/${name}/${operation}` as OperationPath, body, callOptions) : undefined) });
  return new Proxy(base, {
    get: (target, property, receiver): unknown =>
      typeof property === "string" && !(property in target) && property !== "then" ? product(property) : Reflect.get(target, property, receiver),
  }) as PixelPressClient & Products;
}
