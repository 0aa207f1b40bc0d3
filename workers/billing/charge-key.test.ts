import { describe, expect, it } from "vitest";
import { canonicalTransform } from "../../contracts/transform/canonical.ts";
import { parseTransform } from "../../contracts/transform/tokens.ts";
import { requestChargeKey, transformChargeKey, transformChargeOverlay, transformChargeSource } from "./charge-key.ts";

describe("a transform charge key", () => {
  it("gives back its source and the file its overlay drew, whatever the format class", () => {
    const canonical = canonicalTransform(parseTransform("lg_north,l_file_Watermark1,w_400,q_auto:eco"));
    for (const formatClass of [null, "avif"] as const) {
      const key = transformChargeKey({ fileId: "file_Source1", canonical, formatClass });
      expect(transformChargeSource(key)).toBe("file_Source1");
      expect(transformChargeOverlay(key)).toBe("file_Watermark1");
    }
  });

  it("names no overlay without l_, nor for another kind of charge", () => {
    expect(transformChargeOverlay(transformChargeKey({ fileId: "file_l_1", canonical: "w_400", formatClass: null }))).toBeNull();
    expect(transformChargeOverlay(requestChargeKey("req_l_file_x"))).toBeNull();
  });
});
