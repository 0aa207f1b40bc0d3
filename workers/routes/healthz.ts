import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { originHealthy } from "../origin/origin-client.ts";
import { jsonContent } from "../openapi/responses.ts";

const PROBE_TIMEOUT_MS = 2_000;
const dependency = z.object({
  status: z.enum(["ok", "down"]),
  latency_ms: z.number().int(),
  error: z.string().optional(),
});
const healthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    dependencies: z.object({ d1: dependency, r2: dependency, origin: dependency }),
  })
  .openapi("Health");

export const route = createRoute({
  method: "get",
  path: "/healthz",
  tags: ["Platform"],
  summary: "Liveness and dependency reachability",
  description: "No authentication, never billed. 503 when any dependency is down.",
  security: [],
  responses: {
    200: jsonContent(healthSchema, "Every dependency answered"),
    503: jsonContent(healthSchema, "At least one dependency is down"),
  },
});

async function probe(check: () => Promise<unknown>): Promise<z.infer<typeof dependency>> {
  const started = Date.now();
  try {
    const ok = await check();
    if (ok === false) throw new Error("unhealthy answer");
    return { status: "ok", latency_ms: Date.now() - started };
  } catch (error) {
    return { status: "down", latency_ms: Date.now() - started, error: error instanceof Error ? error.message : String(error) };
  }
}

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const [d1, r2, origin] = await Promise.all([
    probe(() => c.env.DB.prepare("SELECT 1").first()),
    probe(() => c.env.FILES.head("healthz")),
    probe(() => originHealthy(c.env, PROBE_TIMEOUT_MS)),
  ]);
  const dependencies = { d1, r2, origin };
  const up = Object.values(dependencies).every((d) => d.status === "ok");
  c.header("Cache-Control", "no-store");
  return up ? c.json({ status: "ok" as const, dependencies }, 200) : c.json({ status: "degraded" as const, dependencies }, 503);
};
