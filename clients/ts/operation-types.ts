// Types derived from the generated api-types.ts, so a new product endpoint (e.g. /v1/pdf/compress)
// becomes `client.pdf.compress` as soon as the types are regenerated.
import type { components, paths } from "./api-types.ts";

type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** POST /v1/{product}/{operation} paths that take a JSON body. */
export type OperationPath = {
  [P in keyof paths]: P extends `/v1/${string}/${string}/${string}`
    ? never
    : P extends `/v1/${string}/${string}`
      ? paths[P] extends { post: { requestBody?: { content: { "application/json": unknown } } } }
        ? P
        : never
      : never;
}[keyof paths];

type PostOf<P extends OperationPath> = paths[P] extends { post: infer Operation } ? Operation : never;

export type RequestBody<P extends OperationPath> = PostOf<P> extends { requestBody?: infer Body } ? JsonOf<NonNullable<Body>> : never;

export type OperationResult<P extends OperationPath> = PostOf<P> extends { responses: { 200: infer Response } } ? JsonOf<Response> : unknown;

export type JobAccepted = components["schemas"]["JobAccepted"];
/** Discriminated by `operation`: each operation's job carries that operation's result. */
export type Job = components["schemas"]["Job"];
export type JobOperation = Job["operation"];
/** What a succeeded job of `Operation` resolves with: the body its synchronous call answers. */
export type JobResult<Operation extends JobOperation = JobOperation> = NonNullable<Extract<Job, { operation: Operation }>["result"]>;

export type ProductOf<P> = P extends `/v1/${infer Product}/${string}` ? Product : never;

export interface CallOptions<Wait extends boolean = boolean> {
  /** When the API answers 202 with a job, poll it and resolve with the job's result. */
  wait?: Wait;
  /** Your own key for this call (e.g. to retry across processes); one is generated otherwise. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** With `wait`: called with the job on every poll, e.g. to show its `progress_detail`. */
  onProgress?: (job: Job) => void;
}

/**
 * One operation, typed by how it is called: `{ wait: true }` resolves with the result; a body that
 * says `mode: "async"` with the accepted job; a body without `mode` (or `mode: "sync"`) with the
 * result, since the API answers a sync call with its result or a problem, never a job. A body whose
 * mode is only known at run time gets either.
 */
export interface Operation<P extends OperationPath> {
  (body: RequestBody<P>, options: CallOptions<true> & { wait: true }): Promise<OperationResult<P>>;
  (body: RequestBody<P> & { mode: "async" }, options?: CallOptions<false>): Promise<JobAccepted>;
  (body: RequestBody<P> & { mode?: "sync" }, options?: CallOptions<false>): Promise<OperationResult<P>>;
  (body: RequestBody<P>, options?: CallOptions): Promise<OperationResult<P> | JobAccepted>;
}

export type Products = {
  [Product in ProductOf<OperationPath>]: {
    [P in OperationPath as P extends `/v1/${Product}/${infer Name}` ? Name : never]: Operation<P>;
  };
};
