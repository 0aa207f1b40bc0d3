// trim_ stays in the canonical form, since a border may be there to cut, and is the origin's work.
// On an original with no such border it changes nothing, which only the pixels tell: the edge asks
// the origin to measure the trim alone (f_json's output size, no image encoded) and, when it cuts
// nothing, makes the plain transform, so the same-bytes rule charges it once. Asked only where the
// plain transform is the edge's from this original: elsewhere both spellings are the origin's work.
import { imageTransformEndpoint, originTransformOptions } from "../../contracts/origin/image-transform.ts";
import { uprightSize } from "../../contracts/image-orientation.ts";
import { resolveTransform } from "../../contracts/transform/canonical.ts";
import { outputChoice } from "../../contracts/transform/output-format.ts";
import type { ResolvedTransform } from "../../contracts/transform/registry.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import type { Bindings } from "../env.ts";
import { edgeCanTransform } from "../edge-image/edge-pipeline.ts";
import type { ImageHeader } from "../edge-image/image-header.ts";
import { originCompute } from "../origin/origin-client.ts";

type TrimEnv = Pick<Bindings, "ORIGIN_URL" | "ORIGIN_SECRET">;

/** `op` without its trim when the trim cuts nothing from `original` (held whole, its header read) and the edge makes the rest. */
export async function withoutIdleTrim(env: TrimEnv, accountId: string, original: Uint8Array, header: ImageHeader, op: ResolvedTransform): Promise<ResolvedTransform> {
  if (op.trim === undefined || header.animated) return op;
  const plain = { ...op, trim: undefined };
  if (!edgeCanTransform(header, plain)) return op;
  const measure = resolveTransform(parseTransform(`trim_${op.trim},f_json`));
  const frame = await originCompute(env, imageTransformEndpoint, { body: original, options: originTransformOptions(measure, outputChoice(measure.format, undefined)), accountId });
  await frame.payload.cancel();
  const { width, height } = uprightSize(header);
  return frame.meta.width === width && frame.meta.height === height ? plain : op;
}
