// One origin endpoint's module exports `route`: the path it serves and its handler, given the
// services every route shares (route-list.ts finds the module from the declared path).
import type { Context } from "hono";
import type { DeadlinePath } from "../../contracts/limits/deadlines.ts";
import type { PdfJobRunner } from "../pdf/pdf-worker-pool.ts";
import type { ComputeSlots } from "../worker-pool/compute-slots.ts";
import type { CallClocks } from "./call-ticket.ts";

/** What the app hands each route: one scheduler for sharp and exceljs, one pool for PDF work, the call clocks. */
export interface OriginServices {
  computeSlots: ComputeSlots;
  pdfPool: PdfJobRunner;
  clocks: CallClocks;
}

export interface OriginRoute {
  path: DeadlinePath;
  handle(c: Context, services: OriginServices): Promise<Response>;
}
