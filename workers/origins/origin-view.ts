import { z } from "@hono/zod-openapi";
import { cdnPurgeSchema } from "../cdn/zone-purge.ts";
import type { OriginRecord } from "./origin-store.ts";

export const originSchema = z
  .object({
    name: z.string().openapi({ example: "shop" }),
    kind: z.enum(["http", "s3"]).openapi({ description: "`http`: a public base URL; `s3`: a private S3-compatible bucket, fetched with signed requests." }),
    base_url: z.string().openapi({ example: "https://cdn.example.com/images/", description: "Transform paths are appended to this (for S3, the endpoint and bucket, path-style)." }),
    s3: z
      .object({ region: z.string(), access_key_id: z.string() })
      .nullable()
      .openapi({ description: "For an S3 origin, its region and access key id; the secret is sealed at rest and never shown again." }),
    created_at: z.string().openapi({ example: "2026-11-25T09:30:00.000Z" }),
  })
  .openapi("Origin");

export function originView(record: OriginRecord): z.infer<typeof originSchema> {
  return {
    name: record.name,
    kind: record.kind,
    base_url: record.base_url,
    s3: record.kind === "s3" ? { region: record.s3_region ?? "auto", access_key_id: record.s3_access_key_id ?? "" } : null,
    created_at: new Date(record.created_at).toISOString(),
  };
}

export const purgeCountsSchema = z
  .object({
    originals: z.number().int().openapi({ description: "Originals fetched from an origin and kept in R2, dropped." }),
    derivatives: z.number().int().openapi({ description: "Derivatives kept in R2 (every version), dropped." }),
    edge_entries: z.number().int().openapi({ description: "Entries dropped from the edge cache of the data centre that ran the call." }),
    cdn: cdnPurgeSchema.openapi({ description: "The same entries purged by URL in every data centre through Cloudflare's API, when the service has a zone token." }),
  })
  .openapi("PurgeCounts");
