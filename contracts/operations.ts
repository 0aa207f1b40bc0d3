// Every operation's name, once: pricing, the ledger, usage reports and jobs all take them from here.

export const operations = ["image.optimize", "image.batch", "image.transform", "pdf.compress", "pdf.analyze", "xlsx.generate"] as const;

export type Operation = (typeof operations)[number];

/** The operations that accept `mode: async`; each must have a job runner (workers/jobs/job-runners.ts). */
export const jobOperations = ["image.optimize", "image.batch", "pdf.compress", "xlsx.generate"] as const satisfies readonly Operation[];

export type JobOperation = (typeof jobOperations)[number];
