import { describe, expect, it } from "vitest";
import { PDF_PROFILES } from "../contracts/pdf-options.ts";
import { USAGE } from "./main.ts";

describe("the CLI's usage text", () => {
  it("offers every PDF profile the API takes, custom included", () => {
    const offered = /--profile ([a-z|]+)\]/.exec(USAGE)?.[1]?.split("|");
    expect(offered).toEqual([...PDF_PROFILES]);
    expect(offered).toContain("custom");
  });
});
