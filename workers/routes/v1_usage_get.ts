import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env.ts";
import { accountUsage } from "../billing/account-usage.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";
import { usageRowSchema } from "./v1_account_get.ts";

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;
const GROUPINGS = ["day", "operation", "day_operation"] as const;
const isoDate = z.iso.date().openapi({ description: "UTC calendar day, inclusive" });

const usageQuery = z
  .object({
    from: isoDate.openapi({ example: "2026-11-01" }),
    to: isoDate.openapi({ example: "2026-11-30" }),
    group_by: z.enum(GROUPINGS).default("day").openapi({
      description: "`day`: one row per UTC day; `operation`: one row per operation; `day_operation`: one row per day and operation that had a charge (a daily chart by operation).",
    }),
  })
  .refine((q) => q.from <= q.to, { message: "`from` must not be after `to`", path: ["from"] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS < MAX_DAYS, {
    message: `The period may span at most ${MAX_DAYS} days`,
    path: ["to"],
  });

const dailyUsageRowSchema = z.object({ day: z.string().openapi({ example: "2026-11-02" }), count: z.number().int(), micros: z.number().int() });

const usageSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    group_by: z.enum(GROUPINGS),
    total: z.object({ count: z.number().int(), micros: z.number().int() }),
    data: z.array(
      // The most specific shape first: a day-and-operation row also has every field of the other two.
      z.union([dailyUsageRowSchema.extend({ operation: usageRowSchema.shape.operation }).openapi("DailyUsageByOperation"), usageRowSchema, dailyUsageRowSchema]),
    ),
  })
  .openapi("Usage");

export const route = createRoute({
  method: "get",
  path: "/v1/usage",
  tags: ["Account"],
  summary: "Usage over a period, by day, by operation, or both",
  description: `Charges and counts between two UTC days inclusive, at most ${MAX_DAYS} days apart. Durable storage appears as \`files.storage\`, one charge per day.`,
  security: bearerSecurity,
  middleware: [requireScope("account")] as const,
  request: { query: usageQuery },
  responses: { 200: jsonContent(usageSchema, "Aggregated usage"), ...problemResponses("validation_failed") },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId } = c.get("caller");
  const query = c.req.valid("query");
  const from = Date.parse(query.from);
  const to = Date.parse(query.to) + DAY_MS;
  const data = await accountUsage(c.env, accountId, query.group_by, from, to);
  const total = {
    count: data.reduce((sum, r) => sum + r.count, 0),
    micros: data.reduce((sum, r) => sum + r.micros, 0),
  };
  return c.json({ from: query.from, to: query.to, group_by: query.group_by, total, data }, 200);
};
