// How many jobs run at once, from the cores. sharp and exceljs run in the main process on one
// slot per core plus one, and one account may hold all but that one: a second account's call
// always finds a slot within one job's time. PDF work gets a thread per core (two at least, so
// that one account's giant document, which may hold only all but one, never stops the others).
import os from "node:os";

export interface PoolSizes {
  computeSlots: number;
  computePerAccount: number;
  pdfWorkers: number;
  pdfPerAccount: number;
}

export function poolSizes(cores: number = os.availableParallelism()): PoolSizes {
  const pdfWorkers = Math.max(2, cores);
  return { computeSlots: cores + 1, computePerAccount: cores, pdfWorkers, pdfPerAccount: pdfWorkers - 1 };
}
