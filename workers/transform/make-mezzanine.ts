// Has the origin derive a file's mezzanine and keeps it in R2. Requests in this isolate that
// miss on the same file meanwhile (a page's srcset asks for several sizes at once) share the one
// origin call; other isolates may make it again, which costs a duplicate origin call and an
// identical overwrite, nothing worse.
import type { Bindings } from "../env.ts";
import { ProblemError } from "../../contracts/problems/catalogue.ts";
import { EDGE_MAX_SOURCE_BYTES } from "../../contracts/limits/edge-budget.ts";
import { readImageHeader } from "../edge-image/image-header.ts";
import { originCompute } from "../origin/origin-client.ts";
import type { Mezzanine } from "../derivatives/mezzanine-store.ts";
import { storeMezzanine } from "../derivatives/mezzanine-store.ts";
import { imageMezzanineEndpoint } from "../../contracts/origin/image-mezzanine.ts";

type MezzanineEnv = Pick<Bindings, "ORIGIN_URL" | "ORIGIN_SECRET" | "FILES">;

const inFlight = new Map<string, Promise<Mezzanine>>();

/** The original's bytes, opened only by the call that sends them (a stream from R2 is read once). */
export type OriginalBody = () => Promise<Uint8Array | ReadableStream<Uint8Array>>;

/** `accountId` owns the file: the origin takes the call in that account's turn. */
export function makeMezzanine(env: MezzanineEnv, accountId: string, fileId: string, original: OriginalBody): Promise<Mezzanine> {
  let pending = inFlight.get(fileId);
  if (!pending) {
    pending = deriveAndStore(env, accountId, fileId, original).finally(() => inFlight.delete(fileId));
    inFlight.set(fileId, pending);
  }
  return pending;
}

async function deriveAndStore(env: MezzanineEnv, accountId: string, fileId: string, original: OriginalBody): Promise<Mezzanine> {
  const frame = await originCompute(env, imageMezzanineEndpoint, { body: await original(), options: {}, accountId });
  const bytes = new Uint8Array(await new Response(frame.payload).arrayBuffer());
  const header = readImageHeader(bytes);
  if (!header || header.width !== frame.meta.width || header.height !== frame.meta.height) {
    throw new ProblemError("internal_error", `The origin's mezzanine for ${fileId} is not the ${frame.meta.width}x${frame.meta.height} ${frame.meta.format} it reported.`);
  }
  if (bytes.byteLength > EDGE_MAX_SOURCE_BYTES) {
    throw new ProblemError("internal_error", `The origin's mezzanine for ${fileId} has ${bytes.byteLength} bytes, more than the edge holds.`);
  }
  await storeMezzanine(env.FILES, fileId, bytes, frame.meta);
  return { bytes, header, meta: frame.meta };
}
