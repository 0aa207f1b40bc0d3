// The file an `l_` token draws over a derivative: a ready image file of the same account, read
// whole (it is at most OVERLAY_MAX_BYTES) so the origin gets it ahead of the source. Every way it
// can fail is one problem naming the token, raised before anything is computed or charged.
import { OVERLAY_MAX_BYTES } from "../../contracts/limits/overlay.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { sniffContentType } from "../../contracts/sniff.ts";
import type { ResolvedTransform } from "../../contracts/transform/token-values.ts";
import type { Bindings } from "../env.ts";
import { readObject } from "../files/file-objects.ts";
import { findReadyFile } from "../files/file-store.ts";
import type { TransformTarget } from "./transform-request.ts";

export interface OverlayFile {
  fileId: string;
  bytes: Uint8Array;
}

function unavailable(fileId: string, detail: string): ProblemError {
  const token = `l_${fileId}`;
  return new ProblemError("overlay_unavailable", `The overlay ${token} cannot be used: ${detail}`, { errors: [{ pointer: `/transform/${token}`, detail }] });
}

/** Null when the transform draws no overlay. */
export async function readOverlay(env: Pick<Bindings, "DB" | "FILES">, accountId: string, target: TransformTarget, op: ResolvedTransform): Promise<OverlayFile | null> {
  if (op.overlay === undefined) return null;
  const { fileId } = op.overlay;
  // A remote origin's derivatives are purged by origin path, which a deleted overlay's file cannot name.
  if (target.kind !== "file") throw unavailable(fileId, "overlays go on files, and this source is a path under a remote origin.");
  const bytes = await readOverlayFile(env, accountId, fileId);
  const sniffed = sniffContentType(bytes);
  if (sniffed?.kind !== "image") {
    throw unavailable(fileId, `it is ${sniffed?.label ?? "not a recognised image"}; an overlay is a JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC, JPEG XL or SVG image.`);
  }
  return { fileId, bytes };
}

async function readOverlayFile(env: Pick<Bindings, "DB" | "FILES">, accountId: string, fileId: string): Promise<Uint8Array> {
  try {
    // Another account's file is not found, like a missing one.
    const file = await findReadyFile(env.DB, accountId, fileId);
    if (file.size_bytes > OVERLAY_MAX_BYTES) throw unavailable(fileId, `it has ${file.size_bytes} bytes; an overlay may have at most ${OVERLAY_MAX_BYTES}.`);
    return new Uint8Array(await (await readObject(env.FILES, file.r2_key, file.id)).arrayBuffer());
  } catch (error) {
    if (!(error instanceof ProblemError) || error.slug === "overlay_unavailable") throw error;
    throw unavailable(fileId, error.message);
  }
}
