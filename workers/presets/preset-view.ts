import { z } from "@hono/zod-openapi";
import type { PresetRecord } from "./preset-store.ts";

export const presetSchema = z
  .object({
    name: z.string().openapi({ example: "thumb", description: "What a transform URL names it by: `t_thumb`." }),
    transform: z.string().openapi({ example: "w_300,h_200,fit_cover,f_auto", description: "The canonical transform the name expands to." }),
    created_at: z.string().openapi({ example: "2026-11-25T09:30:00.000Z" }),
    updated_at: z.string().openapi({ example: "2026-11-25T09:30:00.000Z", description: "When the name was last pointed at a transform." }),
  })
  .openapi("Preset");

export function presetView(record: PresetRecord): z.infer<typeof presetSchema> {
  return {
    name: record.name,
    transform: record.transform,
    created_at: new Date(record.created_at).toISOString(),
    updated_at: new Date(record.updated_at).toISOString(),
  };
}
