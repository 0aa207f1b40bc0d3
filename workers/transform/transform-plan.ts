// Plan: what one transform request will do, decided once before anything is computed or charged.
// The source (a file, or an origin path's current original; a preset was expanded by the reader),
// the derivative's identity, which is also its R2 copy's and its charge's name, the price and,
// when R2 keeps the derivative, that copy. On a miss the plan also holds the overlay's bytes, read
// and checked before the balance is asked; where the pixels are made (the tier) is decided by
// planTier (compute-derivative.ts) once the balance allows it.
import { transformChargeKey } from "../billing/charge-key.ts";
import { transformPrice } from "../../contracts/pricing.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { outputChoice, type OutputChoice } from "../../contracts/transform/output-format.ts";
import type { ResolvedTransform } from "../../contracts/transform/registry.ts";
import type { Bindings } from "../env.ts";
import type { DerivativeMeta } from "../derivatives/derivative-response.ts";
import { readStoredDerivative, type StoredDerivative } from "../derivatives/derivative-store.ts";
import type { DerivativeIdentity } from "../derivatives/derivative-identity.ts";
import { findOverlay, readOverlay, type OverlayFile } from "./transform-overlay.ts";
import type { TransformRequest } from "./transform-request.ts";
import { resolveTransformSource, type TransformSource } from "./transform-source.ts";

export type PlanEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS" | "FILE_SHARDS" | "ALLOW_LOOPBACK_URLS" | "SIGNING_SECRET" | "PUBLIC_BASE_URL">;

export interface TransformPlan {
  request: TransformRequest;
  op: ResolvedTransform;
  choice: OutputChoice;
  source: TransformSource;
  identity: DerivativeIdentity;
  /** The ledger's name for this derivative: billed once ever under it. */
  chargeKey: string;
  price: number;
  /** R2's copy, when it keeps the derivative: the answer, with nothing computed or charged. */
  stored: StoredDerivative | null;
  /** The overlay `l_` draws, read; null without one (or when R2 already keeps the derivative). */
  overlay: OverlayFile | null;
  /** The reply's metadata for a derivative of these bytes. */
  meta(etag: string, contentType: string, bytes: number): DerivativeMeta;
}

export async function planTransform(env: PlanEnv, request: TransformRequest): Promise<TransformPlan> {
  const op = resolveTransform(request.spec);
  // A missing or foreign overlay is refused before the source is read, or fetched from its origin.
  const overlayRef = await findOverlay(env, request.key.accountId, op);
  const source = await resolveTransformSource(env, request);
  const { identity } = source;
  const stored = await readStoredDerivative(env, identity);
  return {
    request,
    op,
    choice: outputChoice(op.format, identity.formatClass ?? undefined),
    source,
    identity,
    // The ledger's unique charge key bills a derivative once ever: after an eviction from both the
    // edge cache and R2 it is computed again but not charged again. An origin path's key names the
    // original's version, so changed bytes are charged anew and the same bytes never twice.
    chargeKey: transformChargeKey(identity),
    price: transformPrice(),
    stored,
    // An overlay that is no image is refused before the balance is asked or anything computed.
    overlay: stored === null ? await readOverlay(env, overlayRef) : null,
    meta: (etag, contentType, bytes) => ({
      etag,
      contentType,
      bytes,
      vary: request.vary,
      ...(source.freshUntil === undefined ? {} : { freshUntil: source.freshUntil }),
      ...(source.stale ? { stale: true } : {}),
    }),
  };
}
