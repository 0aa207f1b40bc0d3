// The transform reader: `{transform}` in GET /v1/image/t/{key_id}/{transform}/{file_id} is a
// comma-separated list of `prefix_value` tokens, each read by its declaration in registry.ts. It
// returns every bad token rather than throwing, so the edge (parseTransform) and the browser URL
// builder each refuse with their own error type from one reading.
import type { FieldError } from "../problems/problem-body.ts";
import { TokenError } from "./token-grammar.ts";
import { MAX_OUTPUT_PIXELS, MAX_TRANSFORM_LENGTH } from "./token-values.ts";
import { TRANSFORM_TOKENS, type DeclaredToken, type SpecOf, type TransformSpec } from "./registry.ts";

export type TransformReading<Spec = TransformSpec> = { spec: Spec; errors?: undefined } | { spec?: undefined; errors: FieldError[] };

// RFC 6901: a token may hold "~" or a percent-decoded "/".
function escapePointerSegment(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The reader of a list of tokens (the registry, or a copy of it in a test). */
export function transformReader<const Tokens extends readonly DeclaredToken[]>(tokens: Tokens): (segment: string) => TransformReading<SpecOf<Tokens>> {
  const byPrefix = new Map<string, DeclaredToken>(tokens.map((declaration) => [declaration.prefix, declaration]));
  const knownPrefixes = tokens.map((declaration) => `${declaration.prefix}_`).join(" ");
  return (segment) => read(segment, byPrefix, knownPrefixes);
}

/** The spec, or every bad token (pointer `/transform/<token>`), so a caller fixes them all in one round trip. */
export const readTransform = transformReader(TRANSFORM_TOKENS);

function read<Spec extends { width?: unknown; height?: unknown }>(segment: string, byPrefix: Map<string, DeclaredToken>, knownPrefixes: string): TransformReading<Spec> {
  if (segment.length === 0) {
    return { errors: [{ pointer: "/transform", detail: "the transform is empty; give at least one token such as w_400" }] };
  }
  if (segment.length > MAX_TRANSFORM_LENGTH) {
    return { errors: [{ pointer: "/transform", detail: `the transform is longer than ${MAX_TRANSFORM_LENGTH} characters` }] };
  }
  const spec: Record<string, unknown> = {};
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const token of segment.split(",")) {
    const pointer = `/transform/${escapePointerSegment(token)}`;
    if (token.length === 0) {
      errors.push({ pointer: "/transform", detail: "empty token (two commas in a row, or a leading or trailing comma)" });
      continue;
    }
    const cut = token.indexOf("_");
    const prefix = cut < 0 ? token : token.slice(0, cut);
    const declaration = byPrefix.get(prefix);
    if (declaration === undefined) {
      errors.push({ pointer, detail: `unknown token "${token}"; known prefixes: ${knownPrefixes}` });
      continue;
    }
    if (seen.has(prefix)) {
      errors.push({ pointer, detail: `${prefix}_ is given more than once` });
      continue;
    }
    seen.add(prefix);
    try {
      spec[declaration.option] = declaration.parse(cut < 0 ? "" : token.slice(cut + 1));
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      errors.push({ pointer, detail: `${prefix}_ ${error.message}` });
    }
  }
  if (errors.length > 0) return { errors };
  // Each field was written by its own declaration's parse, so the record has the spec's shape.
  const parsed = spec as Spec;
  if (typeof parsed.width === "number" && typeof parsed.height === "number" && parsed.width * parsed.height > MAX_OUTPUT_PIXELS) {
    return {
      errors: [{ pointer: "/transform", detail: `w_${parsed.width} x h_${parsed.height} is more than ${MAX_OUTPUT_PIXELS / 1_000_000} MP of output` }],
    };
  }
  return { spec: parsed };
}
