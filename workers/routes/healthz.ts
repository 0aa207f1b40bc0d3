import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { originHealth } from "../origin/origin-client.ts";
import { jsonContent } from "../openapi/responses.ts";

const PROBE_TIMEOUT_MS = 2_000;
/** A flood of /healthz costs one probe of each dependency per this many milliseconds. */
export const HEALTH_CACHE_MS = 5_000;

const poolLoad = z.object({ size: z.number().int(), busy: z.number().int(), queued: z.number().int() });
const dependency = z.object({
  status: z.enum(["ok", "saturated", "down"]),
  latency_ms: z.number().int(),
});
const originDependency = dependency.extend({
  pools: z
    .object({ compute: poolLoad, pdf: poolLoad })
    .optional()
    .openapi({ description: "The origin's worker pools: `saturated` when work waits while every worker of a pool is busy" }),
});
const healthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    checked_at: z.string().openapi({ description: "When the dependencies were probed; answers are reused for a few seconds" }),
    dependencies: z.object({ d1: dependency, r2: dependency, origin: originDependency }),
  })
  .openapi("Health");

type Health = z.infer<typeof healthSchema>;

export const route = createRoute({
  method: "get",
  path: "/healthz",
  tags: ["Platform"],
  summary: "Liveness, dependency reachability and origin saturation",
  description: `No authentication, never billed. 503 when any dependency is down or the origin is saturated (work waiting while every worker is busy). The probes' result is reused for ${HEALTH_CACHE_MS / 1000} s, so a flood of calls costs one probe per dependency per ${HEALTH_CACHE_MS / 1000} s; what failed is logged, never sent.`,
  security: [],
  responses: {
    200: jsonContent(healthSchema, "Every dependency answered and the origin has free workers"),
    503: jsonContent(healthSchema, "A dependency is down or the origin is saturated"),
  },
});

async function probe<T>(name: string, check: () => Promise<T>): Promise<{ result: z.infer<typeof dependency>; value: T | null }> {
  const started = Date.now();
  try {
    const value = await check();
    return { result: { status: "ok", latency_ms: Date.now() - started }, value };
  } catch (error) {
    // The reason names internal hosts and drivers: it stays in the log.
    console.error(`healthz: ${name} is down:`, error);
    return { result: { status: "down", latency_ms: Date.now() - started }, value: null };
  }
}

function loadOf({ size, busy, queued }: z.infer<typeof poolLoad>): z.infer<typeof poolLoad> {
  return { size, busy, queued };
}

async function checkDependencies(env: AppEnv["Bindings"]): Promise<Health> {
  const [d1, r2, origin] = await Promise.all([
    probe("d1", () => env.DB.prepare("SELECT 1").first()),
    probe("r2", () => env.FILES.head("healthz")),
    probe("origin", () => originHealth(env, PROBE_TIMEOUT_MS)),
  ]);
  const pools = origin.value?.pools;
  const originResult = {
    ...origin.result,
    ...(origin.value?.status === "saturated" ? { status: "saturated" as const } : {}),
    ...(pools ? { pools: { compute: loadOf(pools.compute), pdf: loadOf(pools.pdf) } } : {}),
  };
  const dependencies = { d1: d1.result, r2: r2.result, origin: originResult };
  const up = Object.values(dependencies).every((d) => d.status === "ok");
  return { status: up ? "ok" : "degraded", checked_at: new Date().toISOString(), dependencies };
}

// Per isolate and per origin address (tests point isolates' requests at different origins): the
// probe in flight is shared, and its answer reused until it is HEALTH_CACHE_MS old.
const cached = new Map<string, { at: number; health: Promise<Health> }>();

function currentHealth(env: AppEnv["Bindings"]): Promise<Health> {
  const key = env.ORIGIN_URL ?? "container";
  const entry = cached.get(key);
  if (entry !== undefined && Date.now() - entry.at < HEALTH_CACHE_MS) return entry.health;
  const health = checkDependencies(env);
  cached.set(key, { at: Date.now(), health });
  return health;
}

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const health = await currentHealth(c.env);
  c.header("Cache-Control", "no-store");
  return health.status === "ok" ? c.json(health, 200) : c.json(health, 503);
};
