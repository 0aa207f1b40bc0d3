// Named presets (`t_<name>`): what one may hold, and how a URL's own tokens combine with it.
//
// A preset is a transform read by the URL's own parser and kept as its canonical form, so two
// spellings of it are one preset (a client-hinted size, `w_auto`, is kept as written). It may not name another preset (expansion is one lookup, never a
// chain) nor carry `s_` (a signature belongs to a URL), and it must change something.
//
// A URL `t_<name>,<tokens>` means the preset's tokens with each of the URL's tokens replacing the
// preset's token of the same prefix; `dpr_` then multiplies the size that results, as it does in
// any URL. The result is an ordinary transform: its canonical form, not the name, names the
// derivative, so `t_thumb` and the tokens it expands to are one cache entry and one charge.
import { ProblemError } from "../problems/catalogue.ts";
import type { FieldError } from "../problems/problem-body.ts";
import { transformInvalidDetail } from "../problems/transform-invalid.ts";
import { urlTransform } from "./canonical.ts";
import { readTransform } from "./read-transform.ts";
import type { TransformSpec } from "./registry.ts";
import { parseTransform } from "./tokens.ts";

/** A preset's transform as stored (its canonical form), or every reason it cannot be one, pointed at `/transform/<token>`. */
export function readPresetTransform(segment: string): { canonical: string; errors?: undefined } | { canonical?: undefined; errors: FieldError[] } {
  const reading = readTransform(segment);
  if (reading.errors) return { errors: reading.errors };
  const errors: FieldError[] = [];
  if (reading.spec.preset !== undefined) {
    errors.push({ pointer: `/transform/t_${reading.spec.preset}`, detail: "a preset cannot name another preset" });
  }
  if (reading.spec.signature !== undefined) {
    errors.push({ pointer: `/transform/s_${reading.spec.signature}`, detail: "a preset cannot carry a signature; sign the URL that names it" });
  }
  if (errors.length > 0) return { errors };
  // A client-hinted size is decided per request: kept as written (w_auto, dpr_auto), not as its fallback.
  const canonical = urlTransform(reading.spec);
  if (canonical === "") return { errors: [{ pointer: "/transform", detail: "the transform changes nothing; give at least one token such as w_400" }] };
  return { canonical };
}

/** readPresetTransform for the edge: the canonical form, or `transform_invalid`. */
export function presetTransform(segment: string): string {
  const reading = readPresetTransform(segment);
  if (reading.errors) throw new ProblemError("transform_invalid", transformInvalidDetail(reading.errors), { errors: reading.errors });
  return reading.canonical;
}

/** The transform a URL naming a preset asks for: the preset's tokens, each replaced by the URL's token of the same prefix. */
export function expandPreset(presetCanonical: string, asked: TransformSpec): TransformSpec {
  // The preset's fields and the URL's, each written by its own token's parse.
  const expanded: Record<string, unknown> = { ...parseTransform(presetCanonical) };
  for (const [option, value] of Object.entries(asked)) {
    if (value !== undefined && option !== "preset" && option !== "signature") expanded[option] = value;
  }
  return expanded;
}

/** The problem for a URL naming a preset its account does not have: a 400 pointing at the token. */
export function unknownPreset(name: string): ProblemError {
  const errors = [{ pointer: `/transform/t_${name}`, detail: `t_${name} names no preset of this account (POST /v1/presets makes one)` }];
  return new ProblemError("transform_invalid", transformInvalidDetail(errors), { errors });
}
