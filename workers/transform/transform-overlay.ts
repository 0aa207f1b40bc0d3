// The file an `l_` token draws over a derivative: a ready image file of the same account, read
// whole (it is at most OVERLAY_MAX_BYTES) so the origin gets it ahead of the source. A file and an
// origin path take one alike: the derivative's row records the overlay's file, so deleting or
// purging that file drops it, whatever its source. Every way it can fail is one problem naming the
// token. What D1 alone decides (a missing, foreign, unfinished or oversized file) is refused before
// the source is read or fetched from its origin; what the bytes decide, before anything is
// computed or charged.
import { OVERLAY_MAX_BYTES } from "../../contracts/limits/overlay.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { sniffContentType } from "../../contracts/sniff.ts";
import type { ResolvedTransform } from "../../contracts/transform/registry.ts";
import type { Bindings } from "../env.ts";
import { readObject } from "../objects/file-objects.ts";
import type { FileIndexEnv } from "../files/file-store.ts";
import { recentReadyFile } from "../files/recent-files.ts";

/** An overlay's file, found ready and small enough; its bytes not read yet. */
export interface OverlayRef {
  fileId: string;
  r2Key: string;
}

export interface OverlayFile {
  fileId: string;
  bytes: Uint8Array;
}

function unavailable(fileId: string, detail: string): ProblemError {
  const token = `l_${fileId}`;
  return new ProblemError("overlay_unavailable", `The overlay ${token} cannot be used: ${detail}`, { errors: [{ pointer: `/transform/${token}`, detail }] });
}

/** Mapped to `overlay_unavailable` naming the token, whatever failed. */
async function asOverlayProblem<T>(fileId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ProblemError) || error.slug === "overlay_unavailable") throw error;
    throw unavailable(fileId, error.message);
  }
}

/** Null when the transform draws no overlay. Reads the file index only (remembered a moment: ../files/recent-files.ts). */
export function findOverlay(env: FileIndexEnv, accountId: string, op: ResolvedTransform): Promise<OverlayRef | null> {
  if (op.overlay === undefined) return Promise.resolve(null);
  const { fileId } = op.overlay;
  return asOverlayProblem(fileId, async () => {
    // Another account's file is not found, like a missing one.
    const file = await recentReadyFile(env, accountId, fileId);
    if (file.size_bytes > OVERLAY_MAX_BYTES) throw unavailable(fileId, `it has ${file.size_bytes} bytes; an overlay may have at most ${OVERLAY_MAX_BYTES}.`);
    return { fileId, r2Key: file.r2_key };
  });
}

export async function readOverlay(env: Pick<Bindings, "FILES">, overlay: OverlayRef | null): Promise<OverlayFile | null> {
  if (overlay === null) return null;
  const { fileId } = overlay;
  const bytes = await asOverlayProblem(fileId, async () => new Uint8Array(await (await readObject(env.FILES, overlay.r2Key, fileId)).arrayBuffer()));
  const sniffed = sniffContentType(bytes);
  if (sniffed?.kind !== "image") {
    throw unavailable(fileId, `it is ${sniffed?.label ?? "not a recognised image"}; an overlay is a JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC, JPEG XL or SVG image.`);
  }
  return { fileId, bytes };
}
