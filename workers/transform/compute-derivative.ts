// The last tier: make the derivative. At the edge when the jSquash pipeline can do it within the
// memory budget, otherwise at the origin (sharp), which takes any size the platform accepts.
import type { Bindings } from "../env.ts";
import { edgeCanTransform, transformAtEdge } from "../edge-image/edge-pipeline.ts";
import { readImageHeader } from "../edge-image/image-header.ts";
import { originCompute } from "../origin/origin-client.ts";
import type { ResolvedTransform } from "./canonical.ts";
import { IMAGE_TRANSFORM_PATH, type OriginTransformMeta, type OriginTransformOptions } from "./origin-transform.ts";
import { resolveOutputFormat, type OutputChoice } from "./output-format.ts";
import type { OutputFormat } from "./tokens.ts";

export interface ComputedDerivative {
  bytes: Uint8Array;
  format: OutputFormat;
  width: number;
  height: number;
  engine: "edge" | "origin";
}

export async function computeDerivative(
  env: Pick<Bindings, "ORIGIN_URL" | "ORIGIN_SECRET">,
  source: Uint8Array,
  op: ResolvedTransform,
  choice: OutputChoice,
): Promise<ComputedDerivative> {
  const header = readImageHeader(source);
  if (edgeCanTransform(header, op)) {
    const format = resolveOutputFormat(choice, header.format, header.hasAlpha);
    const out = await transformAtEdge(source, header, op, format);
    return { bytes: out.bytes, format, width: out.width, height: out.height, engine: "edge" };
  }
  const options: OriginTransformOptions = {
    width: op.width,
    height: op.height,
    fit: op.fit,
    gravity: op.gravity,
    quality: op.quality,
    rotate: op.rotate,
    blur: op.blur,
    sharpen: op.sharpen,
    output: choice,
  };
  const frame = await originCompute<OriginTransformMeta>(env, IMAGE_TRANSFORM_PATH, { body: source, options });
  const bytes = new Uint8Array(await new Response(frame.payload).arrayBuffer());
  return { bytes, format: frame.meta.format, width: frame.meta.width, height: frame.meta.height, engine: "origin" };
}
