// One derivative, one cache entry, one charge: every way of writing the same operation
// must canonicalize to the same string, so order, aliases, defaults and parameters that
// cannot change the output are all folded away (the rules: spec-folding.ts).
import { canonicalTokens, TRANSFORM_TOKENS, writtenTokens, type DeclaredToken, type OperationOf, type ResolvedTransform, type SpecOf, type TransformSpec } from "./registry.ts";

/** The operation a list of tokens resolves a spec to: each declaration's fields, in the list's order. */
export function resolveWith<const Tokens extends readonly DeclaredToken[]>(tokens: Tokens, spec: SpecOf<Tokens>): OperationOf<Tokens> {
  const operation = {};
  // Each declaration reads the spec its list parses; the merged fields are the operation's type.
  for (const declaration of tokens) if (declaration.fields !== null) Object.assign(operation, declaration.fields.resolve(spec as never));
  return operation as OperationOf<Tokens>;
}

export function resolveTransform(spec: TransformSpec): ResolvedTransform {
  return resolveWith(TRANSFORM_TOKENS, spec);
}

// Tokens in the registry's order, defaults omitted. The result parses back to the same operation;
// a transform that changes nothing (e.g. "r_auto") canonicalizes to the empty string.
export function canonicalTransform(spec: TransformSpec): string {
  return canonicalTokens(resolveTransform(spec)).join(",");
}

/**
 * The transform as a URL writes it and a signature signs it. Without a preset or a hinted size, the
 * canonical transform. With one (`t_<name>`, `w_auto`, `dpr_auto`), the tokens as given, unfolded:
 * what they mean is only known once the edge has the preset or the request's hints, so a token that
 * looks like a default here (`q_76`, `fit_cover` without a size) may still change the output, and
 * w_auto's bounds must stay signed.
 */
export function urlTransform(spec: TransformSpec): string {
  const decidedAtTheEdge = spec.preset !== undefined || typeof spec.width === "object" || spec.dpr === "auto";
  return decidedAtTheEdge ? writtenTokens(spec).join(",") : canonicalTransform(spec);
}
