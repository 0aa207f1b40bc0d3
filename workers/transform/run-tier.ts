// The tier planTier chose (compute-derivative.ts), run: the edge's jSquash pipeline on the original
// or on the file's mezzanine (made first by the origin when it has none), or the origin's sharp.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { transformAtEdge, type EdgeOutput } from "../edge-image/edge-pipeline.ts";
import type { ImageHeader } from "../edge-image/image-header.ts";
import { originCompute } from "../origin/origin-client.ts";
import { makeMezzanine } from "./make-mezzanine.ts";
import type { Mezzanine } from "../derivatives/mezzanine-store.ts";
import { imageTransformEndpoint, originTransformOptions } from "../../contracts/origin/image-transform.ts";
import { resolveOutputFormat, type DerivativeFormat, type OutputChoice } from "../../contracts/transform/output-format.ts";
import type { FixedQualityTransform, ResolvedTransform } from "../../contracts/transform/registry.ts";
import type { OriginalBody } from "./make-mezzanine.ts";
import type { OverlayFile } from "./transform-overlay.ts";

export interface ComputedDerivative {
  /** In memory when the edge made it (within its output budget); the origin's streams on, never held here. */
  body: Uint8Array | ReadableStream<Uint8Array>;
  size: number;
  sha256: string;
  /** An image's format, or `json` for f_json's facts (made only at the origin). */
  format: DerivativeFormat;
  width: number;
  height: number;
  engine: "edge" | "origin";
  // What the pixels were made from.
  source: "original" | "mezzanine";
}

/**
 * Where the pixels are made. The edge's tiers carry the transform as the edge takes it (a fixed
 * quality); `otherwise` is the tier that takes over when the edge cannot read the original after all.
 */
export type ComputeTier =
  | { kind: "origin"; original: OriginalBody }
  | { kind: "edge-original"; op: FixedQualityTransform; original: Uint8Array; header: ImageHeader; otherwise: ComputeTier }
  | { kind: "edge-mezzanine"; op: FixedQualityTransform; mezzanine: Mezzanine }
  | { kind: "make-mezzanine"; op: FixedQualityTransform; original: OriginalBody };

type RunEnv = Pick<Bindings, "ORIGIN_URL" | "ORIGIN_SECRET" | "FILES">;

/** What every tier works on: whose work it is, the file, the transform (its no-ops dropped), the output asked for and the overlay. */
export interface TierWork {
  accountId: string;
  fileId: string;
  op: ResolvedTransform;
  choice: OutputChoice;
  overlay: OverlayFile | null;
}

export async function runTier(env: RunEnv, work: TierWork, tier: ComputeTier): Promise<ComputedDerivative> {
  switch (tier.kind) {
    case "origin":
      return computeAtOrigin(env, work, await tier.original());
    case "edge-mezzanine":
      return fromMezzanine(tier.mezzanine, tier.op, work.choice);
    case "make-mezzanine":
      return fromMezzanine(await makeMezzanine(env, work.accountId, work.fileId, tier.original), tier.op, work.choice);
    case "edge-original":
      return (await fromOriginalAtEdge(tier.original, tier.header, tier.op, work.choice)) ?? runTier(env, work, tier.otherwise);
  }
}

/**
 * Null when the edge cannot read the original: its decoders are stricter than the origin's (the
 * PNG one refuses an ancillary chunk of a few MB before the image data), so the origin reads it,
 * or reports it corrupt.
 */
async function fromOriginalAtEdge(original: Uint8Array, header: ImageHeader, op: FixedQualityTransform, choice: OutputChoice): Promise<ComputedDerivative | null> {
  const format = resolveOutputFormat(choice, header.format, header.hasAlpha);
  try {
    return madeAtEdge(await transformAtEdge(original, header, op, format), "original");
  } catch (error) {
    if (error instanceof ProblemError && error.slug === "image_unreadable") return null;
    throw error;
  }
}

async function fromMezzanine(mezzanine: Mezzanine, op: FixedQualityTransform, choice: OutputChoice): Promise<ComputedDerivative> {
  const { original } = mezzanine.meta;
  // The output format follows the original (a WebP photo's mezzanine is a JPEG).
  const format = resolveOutputFormat(choice, original.format, original.hasAlpha);
  return madeAtEdge(await transformAtEdge(mezzanine.bytes, mezzanine.header, op, format, original), "mezzanine");
}

async function madeAtEdge(out: EdgeOutput, source: ComputedDerivative["source"]): Promise<ComputedDerivative> {
  const { bytes, format, width, height } = out;
  return { body: bytes, size: bytes.byteLength, sha256: await sha256Hex(bytes), format, width, height, engine: "edge", source };
}

async function computeAtOrigin(env: RunEnv, work: TierWork, original: Uint8Array | ReadableStream<Uint8Array>): Promise<ComputedDerivative> {
  const { accountId, op, choice, overlay } = work;
  const body = overlay === null ? original : overlayAhead(overlay.bytes, original);
  const options = originTransformOptions(op, choice, overlay?.bytes.byteLength);
  const frame = await originCompute(env, imageTransformEndpoint, { body, options, accountId });
  const { size, sha256, format, width, height } = frame.meta;
  return { body: frame.payload, size, sha256, format, width, height, engine: "origin", source: "original" };
}

/** The transform call's body with an overlay: its bytes, then the original's, still streaming (contracts/origin/image-transform.ts). */
function overlayAhead(overlay: Uint8Array, original: Uint8Array | ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = original instanceof Uint8Array ? null : original.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(overlay);
      if (original instanceof Uint8Array) {
        controller.enqueue(original);
        controller.close();
      }
    },
    async pull(controller) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader?.cancel(reason);
    },
  });
}
