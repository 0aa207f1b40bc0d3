// Every operation, once: its name (pricing, the ledger, usage reports and jobs take it from here),
// the key scope that grants it, how it is served and whether it also runs as a job. The edge
// derives its scopes, its route table, its job runners and its job view from this list and one
// module per processing operation (workers/operations/operation-list.ts, total over this list by
// its type), so a name missing from any of them does not compile.
const declarations = {
  "image.optimize": { scope: "images", served: "processing", runsAsJob: true },
  "image.batch": { scope: "images", served: "processing", runsAsJob: true },
  "image.transform": { scope: "images", served: "url-transform", runsAsJob: false },
  "pdf.compress": { scope: "pdf", served: "processing", runsAsJob: true },
  "pdf.analyze": { scope: "pdf", served: "processing", runsAsJob: false },
  "xlsx.generate": { scope: "xlsx", served: "processing", runsAsJob: true },
} as const;

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
