import { z } from "@hono/zod-openapi";
import { scopes } from "../auth/scopes.ts";
import type { KeyRecord } from "./key-store.ts";

const isoTime = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const apiKeySchema = z
  .object({
    key_id: z.string().openapi({ example: "key_7QdVb2Rk9sW1mXc4TzA0" }),
    name: z.string().nullable().openapi({ example: "production backend" }),
    display_prefix: z.string().openapi({ example: "ak_live_3fQ9" }),
    scopes: z.array(z.enum(scopes)).nullable().openapi({ description: "null means full access", example: ["images", "pdf"] }),
    created_at: z.string().openapi({ example: "2026-11-23T09:30:00.000Z" }),
    last_used_at: z.string().nullable().openapi({ example: "2026-11-23T10:02:11.000Z" }),
    revoked_at: z.string().nullable().openapi({ example: null }),
  })
  .openapi("ApiKey");

export function apiKeyView(record: KeyRecord): z.infer<typeof apiKeySchema> {
  return {
    key_id: record.id,
    name: record.name,
    display_prefix: record.display_prefix,
    scopes: record.scopes,
    created_at: isoTime(record.created_at)!,
    last_used_at: isoTime(record.last_used_at),
    revoked_at: isoTime(record.revoked_at),
  };
}
