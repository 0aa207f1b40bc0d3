// The edge-to-origin contract for a transform the edge cannot compute itself (large sources,
// blur, sharpen, rotation, EXIF orientation, padding, content-aware crops, overlays, AVIF/GIF/TIFF
// sources). Both sides validate with this schema, built from the token registry's operands.
//
// The body is the source's bytes. With an overlay (l_) the overlay file's bytes come first and
// `overlay.bytes` says how many: the source still streams from R2 behind them, unbuffered, and the
// origin takes both from one read (splitTransformBody).
import { z } from "@hono/zod-openapi";
import { ProblemError } from "../problems/catalogue.ts";
import { FACTS_FORMAT, OUTPUT_FORMATS, VIDEO_FORMATS } from "../transform/token-values.ts";
import { TRANSFORM_TOKENS, type DeclaredToken, type OperationOf, type WireInputOf, type WireOf } from "../transform/registry.ts";
import { operandSchemas } from "../transform/operand-schema.ts";
import { outputChoices, type OutputChoice } from "../transform/output-format.ts";

export const IMAGE_TRANSFORM_PATH = "/image/transform";

/** The format the edge negotiated for the output (f_auto resolved against Accept): the call's, not a token's. */
type CallFields = { output: OutputChoice };

/**
 * The origin's transform options from a list of tokens (the registry, or a copy of it in a test):
 * each token's fields as its operands declare them, or as its wire form sends them. The schema is
 * built from the same operands its static type is read from.
 */
export function originTransformWire<const Tokens extends readonly DeclaredToken[]>(tokens: Tokens) {
  const fields: Record<string, z.ZodType> = { output: z.enum(outputChoices) };
  for (const { fields: declared } of tokens) if (declared !== null) Object.assign(fields, operandSchemas(declared.wire?.operands ?? declared.operands));
  // zod cannot type an object whose fields come from a list; the static type is read from the same operands.
  const schema = z.object(fields).strict() as z.ZodType as z.ZodType<WireOf<Tokens> & CallFields, WireInputOf<Tokens> & CallFields>;

  /** `overlayBytes`: the length of the overlay file sent ahead of the source, when `op` has one. */
  function options(op: OperationOf<Tokens>, output: OutputChoice, overlayBytes?: number): WireInputOf<Tokens> & CallFields {
    const sent: Record<string, unknown> = { output };
    for (const { fields: declared } of tokens) {
      if (declared === null) continue;
      const own = Object.fromEntries(Object.keys(declared.operands).map((field) => [field, (op as Record<string, unknown>)[field]]));
      // The operation's fields are the ones the same operands declare, so each declaration reads its own.
      Object.assign(sent, declared.wire === undefined ? own : declared.wire.send(own as never, { overlayBytes }));
    }
    return sent as WireInputOf<Tokens> & CallFields;
  }
  return { schema, options };
}

const registryWire = originTransformWire(TRANSFORM_TOKENS);

export const originTransformSchema = registryWire.schema;

export type OriginTransformOptions = z.input<typeof originTransformSchema>;

export const originTransformOptions = registryWire.options;

export const originTransformReplySchema = z.object({
  format: z.enum([...OUTPUT_FORMATS, ...VIDEO_FORMATS, FACTS_FORMAT]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  // Of the payload that follows, so the edge can store it and name its ETag while it streams.
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type OriginTransformMeta = z.infer<typeof originTransformReplySchema>;

export const imageTransformEndpoint = { path: IMAGE_TRANSFORM_PATH, options: originTransformSchema, reply: originTransformReplySchema } as const;

/** The source and the overlay a transform call's body holds, as its options declare them. */
export function splitTransformBody(body: Uint8Array, options: { overlay?: { bytes: number } | undefined }): { source: Uint8Array; overlay: Uint8Array | null } {
  if (options.overlay === undefined) return { source: body, overlay: null };
  const { bytes } = options.overlay;
  if (body.byteLength <= bytes) throw new ProblemError("validation_failed", `The body has ${body.byteLength} bytes, not an overlay of ${bytes} and a source after it.`);
  return { overlay: body.subarray(0, bytes), source: body.subarray(bytes) };
}
