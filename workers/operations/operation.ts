// What one processing operation declares (docs/recipes.md, "Adding a processing operation").
// The route (workers/routes/processing-route.ts), the job runners, the job view and the scopes
// are built from these declarations; an operation module holds no HTTP handler of its own.
import type { z } from "@hono/zod-openapi";
import type { Source, webhookTargetSchema } from "../../contracts/envelope.ts";
import type { ProcessingOperation } from "../../contracts/operations.ts";
import type { ProblemType } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import type { Caller } from "../hono-env.ts";
import type { JobProgress } from "../jobs/job-progress.ts";
import type { JobRecord } from "../jobs/job-store.ts";
import type { ResolvedSource, StoredBytesLimit } from "../sources/resolve-source.ts";
import type { ExpectedKind } from "../../contracts/sniff.ts";

/** The envelope every processing request shares beside its own fields. */
export interface ProcessingBody {
  mode: "sync" | "async";
  webhook?: z.infer<typeof webhookTargetSchema>;
}

/** A request accepted for work: its input (checked, sources resolved), its account, where its links point. */
export interface Accepted<Input> {
  accountId: string;
  input: Input;
  baseUrl: string;
}

/** A synchronous run: charged under the request's key; the request id goes to the origin's log. */
export interface SyncWork<Input> extends Accepted<Input> {
  chargeKey: string;
  requestId: string;
}

/** A job's run: its record and its stored request, parsed with the operation's schema before the run sees it. */
export interface JobWork<Request> {
  job: JobRecord;
  request: Request;
}

export interface JobSide<Input, RequestSchema extends z.ZodType, Result> {
  /** What the job row stores: ids of inputs already in R2, never the bytes. */
  requestSchema: RequestSchema;
  /** The OpenAPI component name of this operation's member of the job union. */
  viewName: string;
  /** What `progress_detail.unit` counts. */
  progressUnit: "images" | "stages";
  /** Runs as a job even when `mode` is `sync` (a PDF too large to answer in one request). */
  forcedBy?: (input: Input) => boolean;
  /** Stores the inputs (stashSource) and returns the request the job will run. */
  request(env: Bindings, accepted: Accepted<Input>): Promise<z.input<RequestSchema>>;
  /** The same work as the synchronous run, returning the same body, charged under the job's key. */
  run(env: Bindings, work: JobWork<z.output<RequestSchema>>, progress: JobProgress): Promise<Result>;
}

/** How the public route is described; the path, schemas and problems are the OpenAPI document's. */
export interface HttpDescription {
  path: `/v1/${string}`;
  tags: string[];
  summary: string;
  description: string;
  resultDescription: string;
  problems: ProblemType[];
}

export interface OperationCommon<Name extends ProcessingOperation, Body extends ProcessingBody, Input, ResultSchema extends z.ZodType, JobRequestSchema extends z.ZodType> {
  name: Name;
  http: HttpDescription;
  requestSchema: z.ZodType<Body>;
  /** The synchronous answer, and a succeeded job's result. */
  resultSchema: ResultSchema;
  runSync(env: Bindings, work: SyncWork<Input>): Promise<z.output<ResultSchema>>;
  job: JobSide<Input, JobRequestSchema, z.output<ResultSchema>> | null;
}

/** One source (`{url}`, `{base64}` or `{file_id}`), resolved by the route; the input is the body and that source. */
export interface SourceOperation<Name extends ProcessingOperation, Body extends ProcessingBody & { source: Source }, ResultSchema extends z.ZodType, JobRequestSchema extends z.ZodType>
  extends OperationCommon<Name, Body, SourceInput<Body>, ResultSchema, JobRequestSchema> {
  input: "source";
  expect: ExpectedKind;
  /** A stored source's byte limit, for every source or per sniffed format. */
  maxBytes: StoredBytesLimit;
  /** What the balance must cover before work starts: known from the body (checked before the source is fetched) or priced by the source. */
  balanceCeiling: { fromBody: (body: Body) => number } | { fromSource: (input: SourceInput<Body>) => number };
}

export interface SourceInput<Body> {
  body: Body;
  source: ResolvedSource;
}

/** Several sources or none: the operation checks and plans the body itself, before the balance is read. */
export interface PlannedOperation<Name extends ProcessingOperation, Body extends ProcessingBody, Plan, ResultSchema extends z.ZodType, JobRequestSchema extends z.ZodType>
  extends OperationCommon<Name, Body, Plan, ResultSchema, JobRequestSchema> {
  input: "plan";
  /** Checks beyond the schema; a mistake is a 4xx for the whole request, before any work. */
  plan(body: Body, caller: Caller): Plan;
  balanceCeiling(plan: Plan): number;
}

/**
 * Something done with one operation whatever its own types: one method per way its input is taken.
 * The route registers itself through this, so the body it validates is the operation's own body.
 */
export interface OperationServer<R> {
  source<Body extends ProcessingBody & { source: Source }, ResultSchema extends z.ZodType, JobRequestSchema extends z.ZodType>(
    operation: SourceOperation<ProcessingOperation, Body, ResultSchema, JobRequestSchema>,
  ): R;
  planned<Body extends ProcessingBody, Plan, ResultSchema extends z.ZodType, JobRequestSchema extends z.ZodType>(
    operation: PlannedOperation<ProcessingOperation, Body, Plan, ResultSchema, JobRequestSchema>,
  ): R;
}

/** A job side with its request's type closed over: the stored request is parsed with its own schema before its run sees it. */
export interface ErasedJob {
  run: (env: Bindings, record: JobRecord, progress: JobProgress) => Promise<unknown>;
}

/**
 * One operation as the route table and the job runners read it: its own body, input and job request
 * types kept inside `serve` and `job.run`, so operations of different types share one type. (The job
 * view and submitJob read the typed modules in operation-list.ts by name.)
 */
export interface ErasedOperation {
  name: ProcessingOperation;
  http: HttpDescription;
  job: ErasedJob | null;
  serve<R>(server: OperationServer<R>): R;
}

function eraseJob<Input, RequestSchema extends z.ZodType, Result>(job: JobSide<Input, RequestSchema, Result> | null): ErasedJob | null {
  if (!job) return null;
  return { run: (env, record, progress) => job.run(env, { job: record, request: job.requestSchema.parse(record.request) }, progress) };
}

/** A source operation erased to what the list holds; its own types are inferred here, from its declaration. */
export function eraseSourceOperation<
  Name extends ProcessingOperation,
  Body extends ProcessingBody & { source: Source },
  ResultSchema extends z.ZodType,
  JobRequestSchema extends z.ZodType,
>(operation: SourceOperation<Name, Body, ResultSchema, JobRequestSchema>): ErasedOperation {
  return { name: operation.name, http: operation.http, job: eraseJob(operation.job), serve: (server) => server.source(operation) };
}

/** A planned operation erased to what the list holds; its own types are inferred here, from its declaration. */
export function erasePlannedOperation<
  Name extends ProcessingOperation,
  Body extends ProcessingBody,
  Plan,
  ResultSchema extends z.ZodType,
  JobRequestSchema extends z.ZodType,
>(operation: PlannedOperation<Name, Body, Plan, ResultSchema, JobRequestSchema>): ErasedOperation {
  return { name: operation.name, http: operation.http, job: eraseJob(operation.job), serve: (server) => server.planned(operation) };
}
