// A token is one declaration: the reader, the resolved operation, the origin's wire schema and its
// options are all read from the token list. A copy of the registry with a token no file knows must
// carry it from the URL to the options the origin's steps receive; a list kept by hand on the way
// would drop it. docs/recipes.md's "Adding a token" names the files this walks.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { decodeOptionsHeader, encodeOptionsHeader } from "../origin/framing.ts";
import { originTransformOptions, originTransformSchema, originTransformWire } from "../origin/image-transform.ts";
import { resolveTransform, resolveWith } from "./canonical.ts";
import { integer, optional } from "./operand.ts";
import { readTransform, transformReader } from "./read-transform.ts";
import { token, TRANSFORM_TOKENS, type OperationOf, type ResolvedTransform, type TransformSpec, type WireOf } from "./registry.ts";
import { integerIn } from "./token-grammar.ts";

const vignetteRange = { min: 1, max: 100 } as const;

// Its functions take the registry's spec and operation, which do not have it: they widen them.
const vignette = token({
  prefix: "vig",
  option: "vignette",
  parse: (value) => integerIn(value, vignetteRange),
  fields: { operands: { vignette: optional(integer(vignetteRange)) }, resolve: (spec: TransformSpec & { vignette?: number }): { vignette?: number } => ({ vignette: spec.vignette }) },
  canonical: (op: ResolvedTransform & { vignette?: number }): string | undefined => op.vignette?.toString(),
  edge: false,
  originStep: "encode",
  example: "vig_40",
});

const withVignette = [...TRANSFORM_TOKENS, vignette] as const;

/** The way from the URL to the origin's step input, over one token list. */
interface Chain {
  read(segment: string): { spec?: object; errors?: unknown[] };
  resolve(spec: never): object;
  options(op: never, output: "jpeg", overlayBytes?: number): unknown;
  schema: { parse(value: unknown): unknown };
}

function toOrigin(chain: Chain, segment: string) {
  const { spec, errors } = chain.read(segment);
  if (spec === undefined) throw new Error(JSON.stringify(errors));
  const op: Record<string, unknown> = { ...chain.resolve(spec as never) };
  const sent = chain.options(op as never, "jpeg", op.overlay === undefined ? undefined : 64);
  // The options cross the process boundary as the edge sends them: JSON in a header.
  return { op, received: chain.schema.parse(decodeOptionsHeader(encodeOptionsHeader(sent))) };
}

const registryChain: Chain = { read: readTransform, resolve: resolveTransform, options: originTransformOptions, schema: originTransformSchema };

describe("a token added to a copy of the registry", () => {
  const wire = originTransformWire(withVignette);
  const chain: Chain = { read: transformReader(withVignette), resolve: (spec) => resolveWith(withVignette, spec), ...wire };

  it("arrives, parsed, in the options the origin's steps receive", () => {
    const { op, received } = toOrigin(chain, "w_400,vig_40");
    expect(op).toMatchObject({ vignette: 40, width: 400 });
    expect(received).toMatchObject({ vignette: 40, width: 400, output: "jpeg" });
    expectTypeOf<WireOf<typeof withVignette>["vignette"]>().toEqualTypeOf<number | undefined>();
  });

  it("is checked on the wire by the shape it declares, and only in the copy", () => {
    expect(wire.schema.safeParse({ quality: 76, output: "jpeg", vignette: 0 }).success).toBe(false);
    expect(wire.schema.safeParse({ quality: 76, output: "jpeg", vignette: 100 }).success).toBe(true);
    expect(originTransformSchema.safeParse({ quality: 76, output: "jpeg", vignette: 40 }).success).toBe(false);
  });

  it("is refused by the registry's own reader", () => {
    expect(readTransform("vig_40").errors).toHaveLength(1);
  });
});

describe("the registry's tokens", () => {
  it("are what the operation's type holds, field for field", () => {
    type Fields<T> = { [K in keyof T]: T[K] };
    expectTypeOf<Fields<ResolvedTransform>>().toEqualTypeOf<Fields<OperationOf<typeof TRANSFORM_TOKENS>>>();
  });

  // The registry's own functions are the list-driven ones: each declared field reaches the origin.
  describe.each(TRANSFORM_TOKENS.filter((declaration) => declaration.fields !== null).map((declaration) => [declaration.prefix, declaration] as const))("%s_", (_prefix, declaration) => {
    it("reaches the origin's step input with the value its declaration resolves", () => {
      const { op, received } = toOrigin(registryChain, declaration.example);
      const own = Object.fromEntries(Object.keys(declaration.fields!.operands).map((field) => [field, op[field]]));
      const sent = declaration.fields!.wire === undefined ? own : declaration.fields!.wire.send(own as never, { overlayBytes: 64 });
      expect(Object.values(own).some((value) => value !== undefined), "the example sets its field").toBe(true);
      expect(received).toMatchObject(JSON.parse(JSON.stringify(sent)) as object);
    });
  });
});

const RECIPES = new URL("../../docs/recipes.md", import.meta.url);

/** The files a recipe section names, as `path` in backquotes, under the heading and its list `label`. */
function recipeFiles(section: string, label: string): string[] {
  const text = readFileSync(RECIPES, "utf8");
  const start = text.indexOf(`## ${section}`);
  if (start < 0) throw new Error(`docs/recipes.md has no section "${section}"`);
  const body = text.slice(start + 3).split("\n## ")[0]!;
  const list = body.split(`**${label}**`)[1]?.trimStart().split("\n\n")[0];
  if (list === undefined) throw new Error(`"${section}" has no **${label}** list`);
  return [...list.matchAll(/`([a-z-]+\/[\w./<>-]+\.ts)`/g)].map((match) => match[1]!);
}

describe("docs/recipes.md, Adding a token", () => {
  it("names files that exist", () => {
    const named = [...recipeFiles("Adding a token", "Edit:"), ...recipeFiles("Adding a token", "Derived, not edited:")].filter((file) => !file.includes("<"));
    expect(named.length).toBeGreaterThan(4);
    expect(named.filter((file) => !existsSync(new URL(`../../${file}`, import.meta.url)))).toEqual([]);
  });

  it("says the derived files are the ones this test walks through", () => {
    // The modules whose list-driven functions toOrigin takes the throwaway token through.
    const walked = ["contracts/transform/read-transform.ts", "contracts/transform/canonical.ts", "contracts/origin/image-transform.ts"];
    expect(recipeFiles("Adding a token", "Derived, not edited:").sort()).toEqual(walked.sort());
  });
});
