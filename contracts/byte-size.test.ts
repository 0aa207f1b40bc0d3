import { describe, expect, it } from "vitest";
import { formatByteSize } from "./byte-size.ts";

describe("formatByteSize", () => {
  it("writes decimal units, kB being 1000 bytes", () => {
    expect([0, 999, 1000, 48_213, 262_961, 1_234_567, 25_000_000, 3_400_000_000].map(formatByteSize)).toEqual(["0 B", "999 B", "1.00 kB", "48.2 kB", "263 kB", "1.23 MB", "25.0 MB", "3.40 GB"]);
  });

  it("keeps the sign of a change", () => {
    expect(formatByteSize(-262_961)).toBe("-263 kB");
  });
});
