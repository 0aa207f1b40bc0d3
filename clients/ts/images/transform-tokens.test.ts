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

  it("writes a structured value (a crop rectangle, a focal point) as its token spells it", () => {
    const options: TransformOptions = { width: 400, height: 300, fit: "cover", gravity: { x: 0.25, y: 0.8 }, crop: { x: 10, y: 20, width: 300, height: 200 } };
    expect(canonicalOf(specOf(options))).toBe("w_400,h_300,fit_cover,g_0.25x0.8,crop_10x20x300x200");
    expect(canonicalOf(specOf({ width: 400, crop: "10x20x300x200" as unknown as TransformOptions["crop"] }))).toBe("w_400,crop_10x20x300x200");
  });
});
