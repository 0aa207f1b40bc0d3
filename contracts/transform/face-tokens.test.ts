// The face tokens' grammars and canonical spellings: what each reads, what it refuses (a 400
// transform_invalid naming the token), and where each folds away.
import { describe, expect, it } from "vitest";
import { ProblemError } from "../problems/catalogue.ts";
import { canonical, refusal } from "./test-support/parsed-segment.ts";
import { resolveTransform } from "./canonical.ts";
import { edgeAppliesAll } from "./registry.ts";
import { parseTransform } from "./tokens.ts";

describe("edge routing", () => {
  it("sends every face token to the origin, and keeps a plain cover crop at the edge", () => {
    const edgeApplies = (segment: string) => edgeAppliesAll(resolveTransform(parseTransform(segment)));
    expect(edgeApplies("w_400,h_300,fit_cover,g_north")).toBe(true);
    for (const segment of ["w_400,h_300,fit_cover,g_face", "w_400,h_300,fit_cover,g_faces", "w_400,h_300,fit_cover,g_auto", "w_400,h_300,fit_cover,g_face,z_2", "w_400,e_blur_faces", "e_pixelate_faces:8"]) {
      expect(edgeApplies(segment)).toBe(false);
    }
  });
});

describe("g_face, g_faces", () => {
  it("keeps a face gravity for a cover crop only, and sends it to the origin", () => {
    expect(canonical("w_400,h_300,fit_cover,g_face")).toBe("w_400,h_300,fit_cover,g_face");
    expect(canonical("w_400,h_300,fit_cover,g_faces")).toBe("w_400,h_300,fit_cover,g_faces");
    expect(canonical("w_400,h_300,fit_contain,g_face")).toBe("w_400,h_300,fit_contain");
    expect(canonical("w_400,g_faces")).toBe("w_400");
  });
});

describe("z_", () => {
  it("reads a zoom from 1 to 10 and keeps it only with a face gravity's cover crop", () => {
    expect(canonical("w_400,h_400,fit_cover,g_face,z_2.50")).toBe("w_400,h_400,fit_cover,g_face,z_2.5");
    expect(canonical("w_400,h_400,fit_cover,g_auto,z_3")).toBe("w_400,h_400,fit_cover,g_auto,z_3");
    for (const folded of ["w_400,h_400,fit_cover,g_face,z_1", "w_400,h_400,fit_cover,g_north,z_2", "w_400,h_400,fit_cover,g_0.2x0.3,z_2", "w_400,h_400,g_face,z_2", "z_2"]) {
      expect(canonical(folded)).not.toMatch(/z_/);
    }
  });

  it.each(["z_0.5", "z_11", "z_2.555", "z_", "z_two"])("refuses %s, naming the token", (segment) => {
    expect(refusal(segment)?.pointer).toBe(`/transform/${segment}`);
    expect(refusal(segment)?.detail).toMatch(/^z_ /);
  });
});

describe("e_blur_faces, e_pixelate_faces", () => {
  it("reads the effect and its amount, and writes the amount only when given", () => {
    expect(parseTransform("e_blur_faces").effect).toEqual({ kind: "blur_faces" });
    expect(parseTransform("e_blur_faces:30").effect).toEqual({ kind: "blur_faces", amount: 30 });
    expect(parseTransform("e_pixelate_faces:12").effect).toEqual({ kind: "pixelate_faces", amount: 12 });
    expect(canonical("w_300,e_pixelate_faces:012")).toBe("w_300,e_pixelate_faces:12");
    expect(canonical("e_blur_faces,f_json")).toBe("f_json");
  });

  it.each(["e_blur_faces:0", "e_blur_faces:101", "e_pixelate_faces:1", "e_pixelate_faces:201", "e_pixelate_faces:2.5", "e_blur_faces:10:2", "e_sepia", "e_blur", "e_"])(
    "refuses %s with a 400 naming the token",
    (segment) => {
      expect(() => parseTransform(segment)).toThrow(ProblemError);
      try {
        parseTransform(segment);
      } catch (error) {
        expect((error as ProblemError).status).toBe(400);
      }
      expect(refusal(segment)?.pointer).toBe(`/transform/${segment}`);
      expect(refusal(segment)?.detail).toMatch(/^e_ /);
    },
  );
});
