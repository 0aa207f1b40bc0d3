// What a transform is made from, file or origin path, in the one shape the rest of the transform
// path takes: the derivative's identity (the source id is the file id, or the origin path's
// version), the original's bytes as the compute step reads them, how long the result may be
// cached, its ETag, and a last check for a source that went away while it was computed.
import { imageSourceMaxBytes } from "../../contracts/image-options.ts";
import { formatOfMime } from "../../contracts/sniff.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import type { Bindings } from "../env.ts";
import { dropIfFileDeleted } from "../files/file-lifecycle.ts";
import { recentReadyFile } from "../files/recent-files.ts";
import { currentOriginal } from "../origins/origin-original.ts";
import { currentVersion, findOriginPath } from "../origins/origin-object-store.ts";
import type { DerivativeSource } from "./compute-derivative.ts";
import { strongEtag } from "../derivatives/derivative-response.ts";
import { deleteDerivativesUnder, type DerivativeIdentity } from "../derivatives/derivative-store.ts";
import { deleteEdgeCache } from "../derivatives/edge-cache.ts";
import { storedOriginal } from "./stored-original.ts";
import type { TransformRequest } from "./transform-request.ts";

type SourceEnv = Pick<Bindings, "DB" | "FILES" | "ACCOUNT_SHARDS" | "FILE_SHARDS" | "ALLOW_LOOPBACK_URLS" | "SIGNING_SECRET" | "PUBLIC_BASE_URL">;

export interface TransformSource {
  identity: DerivativeIdentity;
  original: DerivativeSource;
  /** The edge cache keeps the result until then (a file's expiry, an original's freshness); null for a durable file, until it is deleted. */
  cacheUntil: number | null;
  /** An origin path's freshness, sent as the reply's max-age; absent for a file (immutable). */
  freshUntil?: number;
  stale: boolean;
  etag(derivativeSha256: string): string;
  /** Called after the derivative is stored and cached: drops both if the source went away meanwhile. */
  settle(): Promise<void>;
}

export async function resolveTransformSource(env: SourceEnv, request: TransformRequest): Promise<TransformSource> {
  const { key, target, canonical, formatClass } = request;
  if (target.kind === "file") {
    const file = await recentReadyFile(env, key.accountId, target.fileId);
    // A PDF's pages (pg_) are read from a source as large as the PDF endpoints take.
    const format = formatOfMime(file.content_type);
    const limit = imageSourceMaxBytes(format);
    if (file.size_bytes > limit) {
      throw new ProblemError("image_too_large", `File ${file.id} has ${file.size_bytes} bytes; ${format === "pdf" ? "a PDF" : "an image"} source may have at most ${limit}.`, {
        extensions: { limit_bytes: limit },
      });
    }
    return {
      identity: { accountId: key.accountId, fileId: file.id, canonical, formatClass },
      original: storedOriginal(env.FILES, file),
      cacheUntil: file.expires_at,
      stale: false,
      etag: strongEtag,
      // Checked after the row and the cache entry exist: a deletion that ran before the keep had
      // it refused (the shard remembers deleted sources), one that ran between the keep and the
      // cache put dropped the row but could not purge an entry not there yet, so it goes here, and
      // one that runs later finds both.
      settle: async () => {
        await dropIfFileDeleted(env, key.accountId, file.id, request.cacheKey);
      },
    };
  }
  const { origin, known } = await findOriginPath(env, key.accountId, target.name, target.path);
  const { object, sourceId, stale } = await currentOriginal(env, origin, target.path, known);
  return {
    identity: { accountId: key.accountId, fileId: sourceId, canonical, formatClass },
    original: storedOriginal(env.FILES, { id: sourceId, r2_key: object.r2_key, size_bytes: object.size_bytes }),
    cacheUntil: stale ? 0 : object.fresh_until,
    freshUntil: object.fresh_until,
    stale,
    // Tied to the original's version as well as the derivative's bytes.
    etag: (sha256) => `"${object.version.slice(0, 12)}-${sha256.slice(0, 24)}"`,
    // A purge or a newer version that landed while this was computed found none of it to drop.
    settle: async () => {
      if ((await currentVersion(env, origin, target.path)) === object.version) return;
      await deleteDerivativesUnder(env, key.accountId, sourceId);
      await deleteEdgeCache(request.cacheKey);
    },
  };
}
