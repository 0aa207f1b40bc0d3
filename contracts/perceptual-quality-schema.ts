// The quality level as a request and reply field, for the API side only: the levels themselves are
// plain data in perceptual-quality.ts, which the browser's URL builder reaches without zod.
import { z } from "@hono/zod-openapi";
import { QUALITY_LEVELS } from "./perceptual-quality.ts";

export const qualityLevelSchema = z.enum(QUALITY_LEVELS);
