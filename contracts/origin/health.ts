// The origin's /healthz answer, parsed at the edge like every other reply. `saturated` means
// work is waiting while every worker of a pool is busy: the origin is up but serves nothing new
// until a job ends.
import { z } from "@hono/zod-openapi";

export const ORIGIN_HEALTH_PATH = "/healthz";

const poolLoadSchema = z.object({
  size: z.number().int(),
  busy: z.number().int(),
  queued: z.number().int(),
  timed_out: z.number().int(),
});

export const originHealthSchema = z.object({
  status: z.enum(["ok", "saturated"]),
  rss_bytes: z.number(),
  /** Calls this process has received since it started, /healthz aside: an operator sees how the edge spreads work. */
  requests: z.number().int(),
  pools: z.object({ compute: poolLoadSchema, pdf: poolLoadSchema }),
});

export type OriginHealth = z.infer<typeof originHealthSchema>;
export type PoolLoadReport = z.infer<typeof poolLoadSchema>;
