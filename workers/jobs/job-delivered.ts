// What a succeeded job charged and which files it delivered (./delivered-by-job.ts reads it from
// the result). The shard keeps it beside the result and feeds it, not the result (a result may hold
// a whole output in base64), to the shared report the books read (scripts/soak/reconcile.ts).
import { z } from "zod";

export const jobDeliveredSchema = z.object({ charged_micros: z.number().int(), file_ids: z.array(z.string()) });

export type JobDelivered = z.infer<typeof jobDeliveredSchema>;
