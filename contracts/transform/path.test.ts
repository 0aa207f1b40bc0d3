import { describe, expect, it } from "vitest";
import { canonicalTransform } from "./canonical.ts";
import { transformPath } from "./path.ts";
import { parseTransform } from "./tokens.ts";

describe("transformPath", () => {
  it("puts the key, the transform and the file in the route's order", () => {
    const canonical = canonicalTransform(parseTransform("f_webp,w_400"));
    expect(transformPath("key_abc", canonical, "file_xyz")).toBe("/v1/image/t/key_abc/w_400,f_webp/file_xyz");
  });
});
