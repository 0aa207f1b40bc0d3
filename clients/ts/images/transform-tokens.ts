// Transform options by name, turned into the edge's own token grammar and canonical form: the
// client parses with the edge's parser, so it accepts and refuses exactly what the edge does.
import { urlTransform } from "../../../contracts/transform/canonical.ts";
import { TRANSFORM_TOKENS, writeTokenValue, type TransformOptionName, type TransformSpec, type TransformToken } from "../../../contracts/transform/registry.ts";
import { clientSpecOf, transformInvalid } from "./transform-error.ts";

/** The edge's transform by name; signing (`s_`) is the server entry point's, and `jpg` is accepted for `jpeg`. */
export type TransformOptions = Omit<TransformSpec, "signature" | "format"> & { format?: TransformSpec["format"] | "jpg" };

/** Options by name, or tokens as the URL spells them (`"w_400,f_auto"`). */
export type Transform = TransformOptions | string;

type OptionName = keyof TransformOptions;

// Every registry token but the signature, by its option name.
const declarations = Object.fromEntries(
  TRANSFORM_TOKENS.filter((declaration) => declaration.option !== "signature").map((declaration) => [declaration.option, declaration]),
) as Record<Exclude<TransformOptionName, "signature">, TransformToken>;

/** Every transform option's name, from the token registry: adapters tell options from HTML attributes by it. */
export const transformOptionNames = Object.keys(declarations) as OptionName[];

function isOption(name: string): name is OptionName {
  return Object.hasOwn(declarations, name);
}

/** `{ width: 400, format: "auto" }` → `"w_400,f_auto"`; undefined values are left out. */
export function tokensOf(options: TransformOptions): string {
  const tokens: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (!isOption(name)) {
      throw transformInvalid([{ pointer: `/transform/${name}`, detail: `unknown option "${name}"; known options: ${Object.keys(declarations).join(", ")}` }]);
    }
    const text = writeTokenValue(declarations[name], value);
    // A comma would smuggle a second token past the option's name.
    if (text.includes(",")) {
      throw transformInvalid([{ pointer: `/transform/${name}`, detail: `${declarations[name].prefix}_ must not contain a comma` }]);
    }
    tokens.push(`${declarations[name].prefix}_${text}`);
  }
  return tokens.join(",");
}

/** The parsed transform, refused with the edge's own problem when the edge would refuse it. */
export function specOf(transform: Transform): TransformSpec {
  const segment = typeof transform === "string" ? transform : tokensOf(transform);
  const spec = clientSpecOf(segment);
  if (spec.signature !== undefined) {
    throw transformInvalid([
      { pointer: `/transform/s_${spec.signature}`, detail: "s_ is added when a URL is signed on the server (createSignedImageUrls); leave it out here" },
    ]);
  }
  return spec;
}

/**
 * The transform in the edge's canonical token order, with defaults dropped: one URL per derivative.
 * A preset's URL (`preset: "thumb"`) keeps the name and every other token as given, since only the
 * edge knows what they override.
 */
export function canonicalOf(spec: TransformSpec): string {
  const canonical = urlTransform(spec);
  if (canonical === "") {
    throw transformInvalid([{ pointer: "/transform", detail: "the transform changes nothing; give at least one token such as w_400" }]);
  }
  return canonical;
}
