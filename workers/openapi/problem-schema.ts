import { z } from "@hono/zod-openapi";
import { PROBLEM_TYPE_BASE } from "../../contracts/problems/catalogue.ts";

export const problemSchema = z
  .object({
    type: z.string().openapi({ example: `${PROBLEM_TYPE_BASE}validation_failed` }),
    title: z.string().openapi({ example: "Request validation failed" }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().openapi({ example: "1 field is invalid." }),
    request_id: z.string().optional().openapi({ example: "req_4Vb0Zr1kQm8sT2xWc9Ya" }),
    errors: z
      .array(z.object({ pointer: z.string(), detail: z.string() }))
      .optional()
      .openapi({ example: [{ pointer: "/options/width", detail: "Too big: expected number to be <=16384" }] }),
  })
  .passthrough()
  .openapi("Problem", { description: "RFC 9457 problem details. Every 4xx and 5xx costs $0." });
