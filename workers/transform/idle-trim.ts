// trim_ stays in the canonical form, since a border may be there to cut, and is the origin's work.
// On an original with no such border it changes nothing, which only the pixels tell: the edge asks
// the origin to measure the trim alone (f_json's output size, no image encoded) and, when it cuts
// nothing, makes the plain transform, so the same-bytes rule charges it once. Asked only where the
// plain transform is the edge's (from the original or from its mezzanine): elsewhere both
// spellings are the origin's work and make the same bytes.
import { imageTransformEndpoint, originTransformOptions } from "../../contracts/origin/image-transform.ts";
import { uprightSize } from "../../contracts/image-orientation.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { outputChoice } from "../../contracts/transform/output-format.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import type { Bindings } from "../env.ts";
import type { ImageHeader } from "../edge-image/image-header.ts";
import { originCompute } from "../origin/origin-client.ts";

type TrimEnv = Pick<Bindings, "ORIGIN_URL" | "ORIGIN_SECRET">;

/** Whether trimming `original` (its header read; held whole, or streamed when it is larger) by `trim` cuts nothing. */
export async function trimCutsNothing(env: TrimEnv, accountId: string, original: Uint8Array | ReadableStream<Uint8Array>, header: ImageHeader, trim: number): Promise<boolean> {
  const measure = resolveTransform(parseTransform(`trim_${trim},f_json`));
  const frame = await originCompute(env, imageTransformEndpoint, { body: original, options: originTransformOptions(measure, outputChoice(measure.format, undefined)), accountId });
  await frame.payload.cancel();
  const { width, height } = uprightSize(header);
  return frame.meta.width === width && frame.meta.height === height;
}
