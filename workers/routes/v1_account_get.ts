import { createRoute, z, type RouteHandler } from "@hono/zod-openapi";
import { findAccount, findAccountSettings } from "../accounts/account-store.ts";
import { durableStorageQuotaBytes } from "../accounts/plan-limits.ts";
import { owedStorageMicros } from "../billing/storage-charge-store.ts";
import { currentBalance } from "../billing/charge-once.ts";
import { monthStart } from "../billing/usage.ts";
import { chargeables } from "../../contracts/pricing.ts";
import { durableUsage } from "../files/file-store.ts";
import type { AppEnv } from "../hono-env.ts";
import { accountSpending } from "../billing/account-usage.ts";
import { requireScope } from "../middleware/require-scope.ts";
import { bearerSecurity, jsonContent, problemResponses } from "../openapi/responses.ts";

export const usageRowSchema = z
  .object({
    operation: z.enum(chargeables).openapi({ example: "image.optimize", description: "An operation, or `files.storage`: durable storage, charged daily." }),
    count: z.number().int().openapi({ example: 1250 }),
    micros: z.number().int().openapi({ example: 1_000_000 }),
  })
  .openapi("UsageByOperation");

const accountSchema = z
  .object({
    account_id: z.string().openapi({ example: "acct_9fT2bQ7kLw3mZr8Xc1Vd" }),
    name: z.string().openapi({ example: "Acme Photos" }),
    plan: z.enum(["free", "pro"]),
    balance_micros: z.number().int().openapi({ example: 24_000_000 }),
    require_signed_transforms: z.boolean().openapi({ description: "Whether transform URLs must carry an `s_` signature (PATCH /v1/account; POST /v1/image/sign signs them)." }),
    usage: z.object({
      period_start: z.string().openapi({ example: "2026-11-01T00:00:00.000Z" }),
      count: z.number().int(),
      micros: z.number().int(),
      by_operation: z.array(usageRowSchema),
    }),
    storage: z
      .object({
        durable_bytes: z.number().int().openapi({ description: "Bytes of durable files (`expires_at: null`) stored now.", example: 52_428_800 }),
        durable_files: z.number().int().openapi({ example: 120 }),
        quota_bytes: z.number().int().openapi({ description: "The plan's durable storage quota (pending durable uploads hold their size against it).", example: 100_000_000_000 }),
        owed_micros: z.number().int().openapi({ description: "Storage charges the balance did not cover; while above 0, new durable files are refused (402).", example: 0 }),
      })
      .openapi({ description: "Durable storage, charged once a day by size (see the price list)." }),
  })
  .openapi("Account");

export const route = createRoute({
  method: "get",
  path: "/v1/account",
  tags: ["Account"],
  summary: "The account, its balance and this month's usage",
  security: bearerSecurity,
  middleware: [requireScope("account")] as const,
  responses: { 200: jsonContent(accountSchema, "The caller's account"), ...problemResponses() },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { accountId } = c.get("caller");
  const now = Date.now();
  const start = monthStart(now);
  const [account, settings, balance, rows, durable, owed] = await Promise.all([
    findAccount(c.env.DB, accountId),
    findAccountSettings(c.env.DB, accountId),
    currentBalance(c.env, accountId),
    accountSpending(c.env, accountId, start, now + 1),
    durableUsage(c.env, accountId, "ready"),
    owedStorageMicros(c.env.DB, accountId),
  ]);
  return c.json(
    {
      account_id: account!.id,
      name: account!.name,
      plan: account!.plan,
      balance_micros: balance,
      require_signed_transforms: settings!.require_signed_transforms,
      usage: {
        period_start: new Date(start).toISOString(),
        count: rows.reduce((sum, r) => sum + r.count, 0),
        micros: rows.reduce((sum, r) => sum + r.micros, 0),
        by_operation: rows,
      },
      storage: {
        durable_bytes: durable.bytes,
        durable_files: durable.files,
        quota_bytes: durableStorageQuotaBytes[account!.plan],
        owed_micros: owed,
      },
    },
    200,
  );
};
