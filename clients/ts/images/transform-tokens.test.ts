import { describe, expect, it } from "vitest";
import { urlTransform } from "../../../contracts/transform/canonical.ts";
import { TRANSFORM_TOKENS } from "../../../contracts/transform/registry.ts";
import { parseTransform } from "../../../contracts/transform/tokens.ts";
import { canonicalOf, specOf, transformOptionNames, type TransformOptions } from "./transform-tokens.ts";

describe("the client's transform options", () => {
  const unsigned = TRANSFORM_TOKENS.filter((declaration) => declaration.option !== "signature");

  it("has one option per registry token but the signature, which only the server adds", () => {
    expect([...transformOptionNames].sort()).toEqual(unsigned.map((declaration) => declaration.option).sort());
  });

  it.each(unsigned.map((declaration) => [declaration.prefix, declaration.example] as const))("writes %s_ by name as the edge reads and signs it", (_prefix, example) => {
    const options = parseTransform(example) as TransformOptions;
    expect(canonicalOf(specOf(options))).toBe(urlTransform(parseTransform(example)));
  });
});
