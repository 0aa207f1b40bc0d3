// Where the edge finds origin instances that come and go without a redeploy: ORIGIN_DIRECTORY_URL
// answers this document, and the edge re-reads it every few seconds. `npm start` serves one from
// a file (scripts/lib/origin-directory.ts); in production any service may, with the same answer.
import { z } from "@hono/zod-openapi";

export const originDirectorySchema = z.object({
  origins: z.array(z.url({ protocol: /^https?$/ })).min(1),
});

export type OriginDirectory = z.infer<typeof originDirectorySchema>;
