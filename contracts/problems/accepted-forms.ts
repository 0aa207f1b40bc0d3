// Zod's own words for a union are "Invalid input", for an unknown key "Unrecognized key", and for
// a missing field "expected string, received undefined": true, and no help to someone writing a
// request by hand. This error map names what would have been
// accepted, read from the schema that refused the value, so every union and strict object in the
// contract explains itself without a message written beside each one.
import type { core } from "zod";

type Schema = core.$ZodType;
type RawIssue = core.$ZodRawIssue;

/** Separates the per-key messages of one unknown-keys issue; validationProblem splits on it. */
export const UNKNOWN_KEY_SEPARATOR = "\n";

function quoted(value: unknown): string {
  return `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;
}

function numberRange(schema: Schema): string {
  // zod's number schema reads its bounds back from its checks; a safe-integer format's own bounds are no limit.
  const bound = (value: unknown) => (typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined);
  const { minValue, maxValue } = schema as { minValue?: unknown; maxValue?: unknown };
  const minimum = bound(minValue);
  const maximum = bound(maxValue);
  if (minimum !== undefined && maximum !== undefined) return `${minimum}..${maximum}`;
  if (minimum !== undefined) return `a number from ${minimum}`;
  if (maximum !== undefined) return `a number up to ${maximum}`;
  return "a number";
}

/** What one branch accepts, or null when it is too rich to name in a sentence. */
function branchForm(schema: Schema): { values: unknown[] } | { words: string } | { key: string } | null {
  const def = schema._zod.def as { type: string; entries?: Record<string, unknown>; values?: unknown[]; shape?: Record<string, unknown>; innerType?: Schema };
  switch (def.type) {
    case "enum":
      return { values: Object.values(def.entries ?? {}) };
    case "literal":
      return { values: def.values ?? [] };
    case "number":
      return { words: numberRange(schema) };
    case "string":
      return { words: "a string" };
    case "boolean":
      return { words: "true or false" };
    case "null":
      return { words: "null" };
    case "object": {
      const keys = Object.keys(def.shape ?? {});
      return keys.length === 1 ? { key: keys[0]! } : null;
    }
    case "default":
    case "optional":
      return def.innerType ? branchForm(def.innerType) : null;
    default:
      return null;
  }
}

function unionMessage(union: Schema): string | undefined {
  const options = (union._zod.def as { options?: Schema[] }).options ?? [];
  const forms = options.map(branchForm);
  if (forms.length === 0 || forms.some((form) => form === null)) return undefined;
  const keys = forms.flatMap((form) => (form && "key" in form ? [form.key] : []));
  if (keys.length === forms.length) return `needs exactly one of ${keys.map(quoted).join(", ")}`;
  if (keys.length > 0) return undefined;
  const words = forms.flatMap((form) => (form && "words" in form ? [form.words] : []));
  const values = forms.flatMap((form) => (form && "values" in form ? form.values : []));
  const parts = [...words, ...(values.length === 1 ? [quoted(values[0])] : values.length > 1 ? [`one of ${values.map(quoted).join(", ")}`] : [])];
  return `is ${parts.join(" or ")}`;
}

/** Edits between two words, a swap of neighbours counting as one (the commonest typo). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known key an unknown one most likely meant: a typo's distance, never a guess across the alphabet. */
export function nearestKey(unknown: string, known: readonly string[]): string | undefined {
  const lower = unknown.toLowerCase();
  const ranked = known
    .map((key) => ({ key, distance: editDistance(lower, key.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance);
  const best = ranked[0];
  return best && best.distance <= Math.max(1, Math.floor(unknown.length / 3)) ? best.key : undefined;
}

function unknownKeysMessage(keys: readonly string[], object: Schema): string {
  const known = Object.keys((object._zod.def as { shape?: Record<string, unknown> }).shape ?? {});
  return keys
    .map((key) => {
      const near = nearestKey(key, known);
      return `Unknown field ${quoted(key)}${near ? `; did you mean ${quoted(near)}?` : "."}`;
    })
    .join(UNKNOWN_KEY_SEPARATOR);
}

/** A missing field's predicate: that it is required, and what it takes when that fits in a few words. */
function requiredMessage(schema: Schema, expected: unknown): string {
  const form = branchForm(schema);
  const takes =
    form !== null && "words" in form ? form.words
    : form !== null && "values" in form ? `one of ${form.values.map(quoted).join(", ")}`
    : typeof expected === "string" ? `${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}`
    : null;
  return `is required${takes === null ? "" : ` (${takes})`}`;
}

/**
 * Zod error map (install with `z.config({ customError })`, or pass as a parse's `error`). A union's
 * message is a predicate ("is 1..100 or one of `auto`, …"); validationProblem puts the field's name
 * before it.
 */
export function acceptedFormsError(issue: RawIssue): string | undefined {
  const schema = issue.inst as Schema | undefined;
  if (!schema || !("_zod" in schema)) return undefined;
  const missing = "input" in issue && issue.input === undefined;
  if (issue.code === "invalid_union" && !("discriminator" in issue && issue.discriminator)) {
    const accepted = unionMessage(schema);
    return missing ? `is required${accepted === undefined ? "" : ` (${accepted.replace(/^(is|needs) /, "")})`}` : accepted;
  }
  if (issue.code === "unrecognized_keys") return unknownKeysMessage((issue as { keys: string[] }).keys, schema);
  if (issue.code === "invalid_type" && missing) return requiredMessage(schema, (issue as { expected?: unknown }).expected);
  return undefined;
}
