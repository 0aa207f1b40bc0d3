// Every operation, once: its name (pricing, the ledger, usage reports and jobs take it from here),
// the key scope that grants it, how it is served, whether it also runs as a job, and the deadline of
// each origin endpoint it calls, by the endpoint's path. The edge derives its scopes, its route
// table, its job runners and its job view from this list and one module per processing operation
// (workers/operations/operation-list.ts, total over this list by its type), so a name missing from
// any of them does not compile; the origin's deadlines (contracts/limits/deadlines.ts) are read
// from it too.
//
// A deadline's sizes: a synchronous call's input is bounded by its route (PDF compress runs as a
// job from 10 MiB, xlsx from 200,000 cells), so its deadline stays well inside a client's patience
// (at most about 40 s) while a job's large input earns minutes. An image call's deadline grows with
// the pixels its pipeline works on too (the source's size brought down to the asked box, as
// shrink-on-load and the resize do), which the file's bytes say little about: two 4K wallpapers of
// 2-3 MB each ran past a deadline counted from their bytes on a busy machine.
import type { DeadlineRule } from "./limits/deadline-rule.ts";

const declarations = {
  "image.optimize": {
    scope: "images",
    served: "processing",
    runsAsJob: true,
    // A 3840x2400 photo (9.2 MP) auto-searched whole earns about 34 s; the quality search answers inside it.
    origin: { "/image/process": { baseMs: 20_000, perMiBMs: 300, perMegapixelMs: 1_500, maxMs: 40_000 } },
  },
  // Each item is an image.optimize call to the origin.
  "image.batch": { scope: "images", served: "processing", runsAsJob: true, origin: {} },
  "image.transform": {
    scope: "images",
    served: "url-transform",
    runsAsJob: false,
    // A file's placeholder (GET /v1/files/{file_id}/placeholder) is made by the transform path's placeholder endpoint.
    origin: {
      "/image/transform": { baseMs: 15_000, perMiBMs: 200, maxMs: 30_000 },
      "/image/mezzanine": { baseMs: 15_000, perMiBMs: 200, maxMs: 30_000 },
      "/image/placeholder": { baseMs: 10_000, perMiBMs: 200, maxMs: 20_000 },
    },
  },
  // Synchronous below 10 MiB (at most 40 s); a job of 200 MiB gets ten minutes.
  "pdf.compress": { scope: "pdf", served: "processing", runsAsJob: true, origin: { "/pdf/compress": { baseMs: 20_000, perMiBMs: 2_000, maxMs: 600_000 } } },
  // Sync only, any size up to PDF_MAX_BYTES: linear in pages, so it never needs long.
  "pdf.analyze": { scope: "pdf", served: "processing", runsAsJob: false, origin: { "/pdf/analyze": { baseMs: 20_000, perMiBMs: 100, maxMs: 40_000 } } },
  // The body is the workbook's JSON; synchronous workbooks (200,000 cells) are a few MiB.
  "xlsx.generate": { scope: "xlsx", served: "processing", runsAsJob: true, origin: { "/xlsx/generate": { baseMs: 20_000, perMiBMs: 2_000, maxMs: 300_000 } } },
} as const satisfies Record<string, { scope: string; served: "processing" | "url-transform"; runsAsJob: boolean; origin: Readonly<Record<string, DeadlineRule>> }>;

export const operationDeclarations: Readonly<typeof declarations> = declarations;

export type Operation = keyof typeof declarations;

type Declared<Key extends "scope" | "served" | "runsAsJob", Value> = {
  [Name in Operation]: (typeof declarations)[Name][Key] extends Value ? Name : never;
}[Operation];

/** The operations that accept `mode: async`; each has a job runner and a job view. */
export type JobOperation = Declared<"runsAsJob", true>;

/** The operations served by the one processing route (POST /v1/{family}/{verb}). */
export type ProcessingOperation = Declared<"served", "processing">;

export type OperationScope = (typeof declarations)[Operation]["scope"];

// Object.keys loses the key type; the record above is the one list, so its keys are exactly these.
export const operations = Object.keys(declarations) as [Operation, ...Operation[]];

export function isJobOperation(name: Operation): name is JobOperation {
  return declarations[name].runsAsJob;
}

export const jobOperations = operations.filter(isJobOperation) as [JobOperation, ...JobOperation[]];

/** The scopes operations need, each once, in declaration order (the first operation's scope is first). */
export const operationScopes = [...new Set(operations.map((name): OperationScope => declarations[name].scope))] as [OperationScope, ...OperationScope[]];
