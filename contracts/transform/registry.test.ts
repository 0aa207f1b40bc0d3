import { describe, expect, it } from "vitest";
import { CANONICAL_BEFORE_REGISTRY } from "./canonical-golden.fixture.ts";
import { canonicalTransform, resolveTransform } from "./canonical.ts";
import { edgeAppliesAll, TRANSFORM_STEPS, TRANSFORM_TOKENS, writtenTokens } from "./registry.ts";
import { TOKEN_DOCS, tokenTable } from "./token-docs.ts";
import { parseTransform } from "./tokens.ts";

const canonical = (segment: string) => canonicalTransform(parseTransform(segment));

describe("the token registry", () => {
  it("keeps every canonical transform the hand-written canonicalizer wrote, byte for byte", () => {
    expect(CANONICAL_BEFORE_REGISTRY.length).toBeGreaterThan(300);
    const changed = CANONICAL_BEFORE_REGISTRY.filter(([segment, before]) => canonical(segment) !== before);
    expect(changed).toEqual([]);
  });

  it("declares each prefix and each option once", () => {
    const prefixes = TRANSFORM_TOKENS.map((declaration) => declaration.prefix);
    const options = TRANSFORM_TOKENS.map((declaration) => declaration.option);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(new Set(options).size).toBe(options.length);
  });

  describe.each(TRANSFORM_TOKENS.map((declaration) => [declaration.prefix, declaration] as const))("%s_", (prefix, declaration) => {
    it("is read by the parser into its option", () => {
      expect(parseTransform(declaration.example)).toHaveProperty(declaration.option);
    });

    it("is in the canonical form exactly when it declares a canonical spelling", () => {
      const tokens = canonical(declaration.example).split(",");
      expect(tokens.some((token) => token.startsWith(`${prefix}_`))).toBe(declaration.canonical !== null);
      if (declaration.canonical !== null) expect(canonical(canonical(declaration.example))).toBe(canonical(declaration.example));
    });

    it("routes to the edge exactly as its allow-list entry says", () => {
      const op = resolveTransform(parseTransform(declaration.example));
      const applies = typeof declaration.edge === "boolean" ? declaration.edge : declaration.edge(op);
      expect(edgeAppliesAll(op)).toBe(applies);
    });

    it("has its line in the OpenAPI token table", () => {
      const line = new Map(Object.entries(TOKEN_DOCS)).get(prefix);
      expect(line).toBeTruthy();
      expect(tokenTable).toContain(`- \`${prefix}_\`: ${line}`);
    });

    it("reads back the same from its written form (a URL naming a preset is signed in it)", () => {
      const { signature: _signed, ...spec } = parseTransform(declaration.example);
      expect(parseTransform(writtenTokens(spec).join(","))).toEqual(spec);
    });

    it("names an origin step the origin runs", () => {
      if (declaration.originStep !== null && declaration.originStep !== "encode" && declaration.originStep !== "open") expect(TRANSFORM_STEPS).toContain(declaration.originStep);
    });
  });

  it("sends a token off the edge's allow-list to the origin, whatever else the transform holds", () => {
    expect(edgeAppliesAll(resolveTransform(parseTransform("w_400,f_webp,q_60")))).toBe(true);
    for (const segment of ["w_400,bl_2", "w_400,h_300,fit_contain", "w_400,h_300,fit_cover,g_auto", "w_400,q_auto", "w_400,r_90", "ph_lqip"]) {
      expect(edgeAppliesAll(resolveTransform(parseTransform(segment))), segment).toBe(false);
    }
    // A token folded away by the canonical form changes nothing, so it keeps the edge.
    expect(edgeAppliesAll(resolveTransform(parseTransform("w_400,g_auto,r_auto")))).toBe(true);
  });

  it("has every origin step claimed by a token", () => {
    for (const step of TRANSFORM_STEPS) expect(TRANSFORM_TOKENS.some((declaration) => declaration.originStep === step), step).toBe(true);
  });
});
