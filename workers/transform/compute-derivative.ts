// Run: the tier that makes the derivative, decided once (planTier), then run (run-tier.ts). At the edge when the jSquash pipeline can do it within the
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
import type { Bindings } from "../env.ts";
import { EDGE_MAX_SOURCE_BYTES } from "../../contracts/limits/edge-budget.ts";
import { edgeCanTransform } from "../edge-image/edge-pipeline.ts";
import { readImageHeader, type ImageHeader } from "../edge-image/image-header.ts";
import type { OriginalBody } from "./make-mezzanine.ts";
import { mezzanineServes, mezzanineWouldServe } from "./mezzanine-plan.ts";
import { findMezzanine, type StoredMezzanine } from "../derivatives/mezzanine-store.ts";
import type { OutputChoice } from "../../contracts/transform/output-format.ts";
import type { ResolvedTransform } from "../../contracts/transform/registry.ts";
import { edgeAppliesAll } from "../../contracts/transform/registry.ts";
import { mayBeSourceNoOp, withoutSourceNoOps } from "../../contracts/transform/source-no-ops.ts";
import { uprightSize } from "../../contracts/image-orientation.ts";
import { trimCutsNothing } from "./idle-trim.ts";
import { runTier, type ComputedDerivative, type ComputeTier } from "./run-tier.ts";
import type { OverlayFile } from "./transform-overlay.ts";

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
  const planned = await planTier(env, accountId, file, op);
  return runTier(env, { accountId, fileId: file.fileId, op: planned.op, choice, overlay }, planned.tier);
}

/**
 * The tier, and `op` without the tokens the original makes no-ops (`pg_1` and a crop of the whole
 * frame on a still JPEG, PNG or WebP, a trim that cuts nothing: the plain transform then, made
 * where the plain one is).
 */
export async function planTier(env: ComputeEnv, accountId: string, file: DerivativeSource, op: ResolvedTransform): Promise<{ op: ResolvedTransform; tier: ComputeTier }> {
  const held = file.size <= EDGE_MAX_SOURCE_BYTES;
  // Read at most once, and only when a decision needs it: a mezzanine that serves spares it.
  let start: Promise<Uint8Array> | null = null;
  const readStart = () => (start ??= file.readStart(held ? file.size : HEADER_READ_BYTES));
  let headerRead: Promise<ImageHeader | null> | null = null;
  const headerOf = () => (headerRead ??= readStart().then((bytes) => readImageHeader(bytes, held ? "whole" : "start")));
  if (mayBeSourceNoOp(op)) {
    const header = await headerOf();
    if (header !== null && !header.animated) op = withoutSourceNoOps(op, uprightSize(header));
  }
  // Looked up at most once, and only when a decision needs it.
  let mezzanineLookup: ReturnType<typeof findMezzanine> | null = null;
  const storedMezzanine = () => (mezzanineLookup ??= findMezzanine(env.FILES, file.fileId));
  if (op.trim !== undefined) {
    const header = await headerOf();
    const plain = { ...op, trim: undefined };
    const plainAtEdge = async (found: ImageHeader) =>
      (held && edgeCanTransform(found, plain)) || (edgeAppliesAll(plain) && mezzanineWouldMake(await storedMezzanine(), found, plain));
    if (header !== null && !header.animated && (await plainAtEdge(header))) {
      if (await trimCutsNothing(env, accountId, held ? await readStart() : await file.stream(), header, op.trim)) op = plain;
    }
  }
  const stream: OriginalBody = () => file.stream();
  // A token off the edge's allow-list (the placeholder engine, q_auto's search, blur, ...) is the
  // origin's whatever the source: decided here, before any mezzanine or header is read.
  if (!edgeAppliesAll(op)) return { op, tier: { kind: "origin", original: stream } };
  const stored = await storedMezzanine();
  const mezzanine = stored && mezzanineServes(stored.meta, op) ? await stored.read() : null;
  if (mezzanine) return { op, tier: { kind: "edge-mezzanine", op, mezzanine } };
  const bytes = await readStart();
  const header = await headerOf();
  const original: OriginalBody = held ? () => Promise.resolve(bytes) : stream;
  if (header?.animated) return { op, tier: { kind: "origin", original } };
  const otherwise: ComputeTier = !stored && header && mezzanineWouldServe(header, op) ? { kind: "make-mezzanine", op, original } : { kind: "origin", original };
  if (held && header && edgeCanTransform(header, op)) return { op, tier: { kind: "edge-original", op, original: bytes, header, otherwise } };
  return { op, tier: otherwise };
}

/** Whether the plain transform is made from a mezzanine: the one stored, or one this miss would make. */
function mezzanineWouldMake(stored: StoredMezzanine | null, original: ImageHeader, op: ResolvedTransform): boolean {
  return stored ? mezzanineServes(stored.meta, op) : mezzanineWouldServe(original, op);
}
