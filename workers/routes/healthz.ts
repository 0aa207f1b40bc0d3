import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { originPoolHealth, originPoolRouting, type InstanceHealth } from "../origin/origin-client.ts";
import { jsonContent } from "../openapi/responses.ts";

const PROBE_TIMEOUT_MS = 2_000;
/** A flood of /healthz costs one probe of each dependency per this many milliseconds. */
export const HEALTH_CACHE_MS = 5_000;

const poolLoad = z.object({ size: z.number().int(), busy: z.number().int(), queued: z.number().int() });
const pools = z.object({ compute: poolLoad, pdf: poolLoad });
const dependency = z.object({
  status: z.enum(["ok", "saturated", "down"]),
  latency_ms: z.number().int(),
});
const routing = z
  .object({
    in_flight: z.number().int(),
    calls: z.number().int(),
    failures: z.number().int(),
    backoff_ms: z.number().int(),
    load: z.object({ busy: z.number().int(), queued: z.number().int(), size: z.number().int() }).nullable(),
    load_age_ms: z.number().int().nullable(),
  })
  .openapi({
    description:
      "What the edge isolate that answered knows of the instance, live: its calls in flight and sent, failures, the back-off it is skipped for, and the load its last reply declared (work running and waiting, over its workers)",
  });
const originInstance = z.object({
  name: z.string().openapi({ description: "The instance's place in the pool (origin-0, origin-1, …); never a host" }),
  status: z.enum(["ok", "saturated", "down"]),
  pools: pools.optional(),
  requests: z.number().int().optional().openapi({ description: "Calls the instance has received since it started" }),
  routing,
});
const originDependency = dependency.extend({
  pools: pools.optional().openapi({ description: "The origin's worker pools, summed over the instances that answered: `saturated` when work waits while every worker of every answering instance is busy" }),
  instances: z.array(originInstance).openapi({ description: "Each origin instance: its own pools' load and queue depth, so an operator sees when to add instances" }),
});
const healthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    checked_at: z.string().openapi({ description: "When the dependencies were probed; answers are reused for a few seconds (each instance's `routing` is live)" }),
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

function sumOf(loads: z.infer<typeof poolLoad>[]): z.infer<typeof poolLoad> {
  return loads.reduce((sum, load) => ({ size: sum.size + load.size, busy: sum.busy + load.busy, queued: sum.queued + load.queued }), { size: 0, busy: 0, queued: 0 });
}

function instanceReport({ label, health, routing: view }: InstanceHealth): z.infer<typeof originInstance> {
  if (health === null) return { name: label, status: "down", routing: view };
  return { name: label, status: health.status, pools: { compute: loadOf(health.pools.compute), pdf: loadOf(health.pools.pdf) }, requests: health.requests, routing: view };
}

/** The pool is down when no instance answers, saturated when every one that answers is. */
function originReport(result: z.infer<typeof dependency>, instances: InstanceHealth[] | null): z.infer<typeof originDependency> {
  if (instances === null) return { ...result, status: "down", instances: [] };
  const reports = instances.map(instanceReport);
  const answering = reports.filter((instance) => instance.pools !== undefined);
  if (answering.length === 0) return { ...result, status: "down", instances: reports };
  const status = answering.every((instance) => instance.status === "saturated") ? "saturated" : "ok";
  const summed = { compute: sumOf(answering.map((i) => i.pools!.compute)), pdf: sumOf(answering.map((i) => i.pools!.pdf)) };
  return { ...result, status, pools: summed, instances: reports };
}

async function checkDependencies(env: AppEnv["Bindings"]): Promise<Health> {
  const [d1, r2, origin] = await Promise.all([
    probe("d1", () => env.DB.prepare("SELECT 1").first()),
    probe("r2", () => env.FILES.head("healthz")),
    probe("origin", async () => {
      const instances = await originPoolHealth(env, PROBE_TIMEOUT_MS);
      if (instances.every((instance) => instance.health === null)) throw new Error("no origin instance answered");
      return instances;
    }),
  ]);
  const dependencies = { d1: d1.result, r2: r2.result, origin: originReport(origin.result, origin.value) };
  const up = Object.values(dependencies).every((d) => d.status === "ok");
  return { status: up ? "ok" : "degraded", checked_at: new Date().toISOString(), dependencies };
}

// Per isolate and per origin address (tests point isolates' requests at different origins): the
// probe in flight is shared, and its answer reused until it is HEALTH_CACHE_MS old or the pool's
// instances change (an origin joined through the directory is probed at once).
const cached = new Map<string, { at: number; pool: string; health: Promise<Health> }>();

function currentHealth(env: AppEnv["Bindings"], pool: string): Promise<Health> {
  const key = env.ORIGIN_URL ?? "container";
  const entry = cached.get(key);
  if (entry !== undefined && entry.pool === pool && Date.now() - entry.at < HEALTH_CACHE_MS) return entry.health;
  const health = checkDependencies(env);
  cached.set(key, { at: Date.now(), pool, health });
  return health;
}

/** The probe's instances with this isolate's routing as it is now, not as it was at the probe. */
function withLiveRouting(health: Health, live: { label: string; routing: z.infer<typeof routing> }[]): Health {
  const now = new Map(live.map(({ label, routing: view }) => [label, view]));
  const instances = health.dependencies.origin.instances.map((instance) => ({ ...instance, routing: now.get(instance.name) ?? instance.routing }));
  return { ...health, dependencies: { ...health.dependencies, origin: { ...health.dependencies.origin, instances } } };
}

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const live = await originPoolRouting(c.env);
  const health = withLiveRouting(await currentHealth(c.env, live.map((instance) => instance.key).join(",")), live);
  c.header("Cache-Control", "no-store");
  return health.status === "ok" ? c.json(health, 200) : c.json(health, 503);
};
