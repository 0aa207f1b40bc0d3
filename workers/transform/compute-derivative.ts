// The last tier: make the derivative. At the edge when the jSquash pipeline can do it within the
// memory budget: from the original when it is small and upright, otherwise from the file's
// mezzanine (see origin-mezzanine.ts), made by the origin on the first such miss. Whatever the
// edge lacks (operations, or outputs larger than the mezzanine) the origin makes from the
// original with sharp, which takes any size the platform accepts.
//
// The first miss that needs a mezzanine waits for it (one origin call) and then transforms it at
// the edge, rather than having the origin serve that miss from the original while the mezzanine
// is made aside: the origin's cost is the same either way (decoding the original dominates both),
// the edge adds about 0.1 s once per file, and a URL's bytes then never depend on whether it was
// the file's first miss, so a derivative recomputed after eviction keeps its ETag.
//
// q_auto is made at the origin: finding the lowest quality that reaches a perceptual score takes
// the metric and several encodes, which only the origin has the CPU for.
//
// An animated original (GIF, which the edge cannot read at all, or WebP with its animation flag)
// always goes to the origin: the edge never runs a frame loop, and a mezzanine is one still frame.
//
// An original over the edge's byte budget is never read whole here, whatever its pixel count:
// the edge reads its header to plan, and the origin gets its bytes as a stream from R2.
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { EDGE_MAX_SOURCE_BYTES } from "../../contracts/limits/edge-budget.ts";
import { sha256Hex } from "../../contracts/crypto/sha256.ts";
import { edgeCanTransform, transformAtEdge, type EdgeOutput } from "../edge-image/edge-pipeline.ts";
import { readImageHeader, type ImageHeader } from "../edge-image/image-header.ts";
import { originCompute } from "../origin/origin-client.ts";
import { makeMezzanine, type OriginalBody } from "./make-mezzanine.ts";
import { mezzanineServes, mezzanineWouldServe } from "./mezzanine-plan.ts";
import { findMezzanine, type Mezzanine } from "../derivatives/mezzanine-store.ts";
import { imageTransformEndpoint, originTransformOptions } from "../../contracts/origin/image-transform.ts";
import { resolveOutputFormat, type DerivativeFormat, type OutputChoice } from "../../contracts/transform/output-format.ts";
import type { FixedQualityTransform, ResolvedTransform } from "../../contracts/transform/token-values.ts";
import { edgeAppliesAll } from "../../contracts/transform/registry.ts";
import { mayBeSourceNoOp, withoutSourceNoOps } from "../../contracts/transform/source-no-ops.ts";
import { uprightSize } from "../../contracts/image-orientation.ts";
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

/** The file a derivative is made of: its id and size, and its original's bytes, read only as needed. */
export interface DerivativeSource {
  fileId: string;
  size: number;
  /** The original's first `length` bytes, or all of them when it is no longer. */
  readStart(length: number): Promise<Uint8Array>;
  /** The whole original as a stream, for the origin. */
  stream(): Promise<ReadableStream<Uint8Array>>;
}

// JPEG puts EXIF, ICC and Photoshop segments before its frame header. A header this misses only
// means the origin does the work.
const HEADER_READ_BYTES = 256 * 1024;

type ComputeEnv = Pick<Bindings, "ORIGIN_URL" | "ORIGIN_SECRET" | "FILES">;

/**
 * `accountId` is whose work this is: the origin queues its calls per account and takes turns, so
 * one account's burst of misses cannot hold every slot while another's waits. `overlay` is the
 * file `op`'s overlay names, read (transform-overlay.ts); an overlay is drawn only at the origin.
 */
export async function computeDerivative(
  env: ComputeEnv,
  accountId: string,
  file: DerivativeSource,
  op: ResolvedTransform,
  choice: OutputChoice,
  overlay: OverlayFile | null = null,
): Promise<ComputedDerivative> {
  op = await withoutNoOpsOf(file, op);
  const atOrigin = (original: Uint8Array | ReadableStream<Uint8Array>) => computeAtOrigin(env, accountId, original, op, choice, overlay);
  // A token off the edge's allow-list (the placeholder engine, q_auto's search, blur, ...) is the
  // origin's whatever the source: decided once here, before any mezzanine or header is read.
  if (!edgeAppliesAll(op)) return atOrigin(await file.stream());
  const stored = await findMezzanine(env.FILES, file.fileId);
  if (stored && mezzanineServes(stored.meta, op)) {
    const mezzanine = await stored.read();
    if (mezzanine) return fromMezzanine(mezzanine, op, choice);
  }

  const held = file.size <= EDGE_MAX_SOURCE_BYTES;
  const start = await file.readStart(held ? file.size : HEADER_READ_BYTES);
  const header = readImageHeader(start, held ? "whole" : "start");
  const original: OriginalBody = held ? () => Promise.resolve(start) : () => file.stream();
  if (header?.animated) return atOrigin(await original());
  if (held && edgeCanTransform(header, op)) {
    const atEdge = await fromOriginalAtEdge(start, header, op, choice);
    if (atEdge) return atEdge;
  }
  if (!stored && header && mezzanineWouldServe(header, op)) {
    return fromMezzanine(await makeMezzanine(env, accountId, file.fileId, original), op, choice);
  }
  return atOrigin(await original());
}

/**
 * `op` without `pg_1` and a crop of the whole frame when the original is a still JPEG, PNG or WebP
 * (one page, its size in the header): the plain transform then, made where the plain one is.
 */
async function withoutNoOpsOf(file: DerivativeSource, op: ResolvedTransform): Promise<ResolvedTransform> {
  if (!mayBeSourceNoOp(op)) return op;
  const held = file.size <= EDGE_MAX_SOURCE_BYTES;
  const header = readImageHeader(await file.readStart(held ? file.size : HEADER_READ_BYTES), held ? "whole" : "start");
  if (header === null || header.animated) return op;
  return withoutSourceNoOps(op, uprightSize(header));
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

async function computeAtOrigin(
  env: ComputeEnv,
  accountId: string,
  original: Uint8Array | ReadableStream<Uint8Array>,
  op: ResolvedTransform,
  choice: OutputChoice,
  overlay: OverlayFile | null,
): Promise<ComputedDerivative> {
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
