import type { OpenAPIHono } from "@hono/zod-openapi";
import { problemTypesMarkdown } from "../docs/problem-pages.ts";
import type { AppEnv } from "../hono-env.ts";

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "PixelPress API",
    version: "1.0.0",
    description:
      "Image, PDF and spreadsheet processing. Every call reports `stats` and `billing.charged_micros` (integer micro-dollars); 4xx, 5xx, failed batch items and outputs that are not smaller cost $0. Errors are RFC 9457 problem details. POST requests accept an `Idempotency-Key` whose response is kept for 24 hours.\n\n" +
      problemTypesMarkdown(),
    license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    contact: { name: "PixelPress support", email: "support@pixelpress.dev" },
  },
  servers: [
    { url: "http://127.0.0.1:8787", description: "Local development (npm start)" },
    { url: "https://api.pixelpress.dev", description: "Production" },
  ],
  security: [{ bearerAuth: [] }],
  tags: [
    { name: "Platform", description: "Health and the API description itself." },
    { name: "Keys", description: "API keys: `ak_live_` secrets shown once, stored hashed." },
    { name: "Account", description: "Balance, plan and usage." },
    { name: "Files", description: "Stored inputs and results: presigned uploads for large sources, signed downloads, acknowledgement." },
    { name: "Jobs", description: "Async work (`mode: async`): poll a job or receive a signed webhook; cancel while queued." },
    { name: "Images", description: "Optimize one image or a batch: resize, convert, compress." },
    { name: "Spreadsheets", description: "Generate .xlsx workbooks from JSON." },
    { name: "PDF", description: "Compress a PDF by profile, or analyze what is in it and what each profile would make of it." },
  ],
};

export function registerSecuritySchemes(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "ak_live_<32 base62><6 base62 checksum>",
    description: "An API key as `Authorization: Bearer ak_live_...`.",
  });
}
