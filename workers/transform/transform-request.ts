// One URL-transform request after the checks that run before the edge cache, and the route's own
// environment type: only the transform route and its middleware carry `transform`, so the app's
// environment (hono-env.ts) does not depend on the transform path.
import type { Bindings } from "../env.ts";
import type { AppEnv } from "../hono-env.ts";
import type { FormatClass } from "../../contracts/transform/negotiate.ts";
import type { TransformSpec } from "../../contracts/transform/registry.ts";
import type { VaryHeader } from "../derivatives/derivative-response.ts";
import type { TransformKey } from "./transform-key.ts";

/** What the URL names after the transform: a stored file, or a path under a registered origin. */
export type TransformTarget = { kind: "file"; fileId: string } | { kind: "origin"; name: string; path: string };

export interface TransformRequest {
  key: TransformKey;
  target: TransformTarget;
  /** The transform to make: as signed, with q_auto's level lowered under Save-Data or a slow ECT and hinted sizes at their rungs. */
  spec: TransformSpec;
  canonical: string;
  /** The preset the URL names (`t_<name>`), already expanded into `spec`: what the derivative is recorded under, for the preset's purge. */
  preset: string | undefined;
  /** f_auto's negotiated class; null for any other transform. */
  formatClass: FormatClass | null;
  cacheKey: Request;
  vary: VaryHeader[];
  ifNoneMatch: string | undefined;
}

export interface TransformEnv {
  Bindings: Bindings;
  Variables: AppEnv["Variables"] & { transform: TransformRequest };
}
