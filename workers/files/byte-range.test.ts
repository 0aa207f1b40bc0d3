import { describe, expect, it } from "vitest";
import { contentRange, resolveByteRange } from "./byte-range.ts";

describe("resolveByteRange", () => {
  it("reads a closed, an open and a suffix range", () => {
    expect(resolveByteRange("bytes=0-99", 1000)).toEqual({ offset: 0, length: 100 });
    expect(resolveByteRange("bytes=900-", 1000)).toEqual({ offset: 900, length: 100 });
    expect(resolveByteRange("bytes=-10", 1000)).toEqual({ offset: 990, length: 10 });
  });

  it("clamps a range that runs past the end", () => {
    expect(resolveByteRange("bytes=990-5000", 1000)).toEqual({ offset: 990, length: 10 });
    expect(resolveByteRange("bytes=-5000", 1000)).toEqual({ offset: 0, length: 1000 });
    expect(resolveByteRange("bytes=0-99999999999999999999999", 1000)).toEqual({ offset: 0, length: 1000 });
  });

  it("is unsatisfiable when the range starts at or past the end, or asks for zero bytes", () => {
    expect(resolveByteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(resolveByteRange("bytes=5000-6000", 1000)).toBe("unsatisfiable");
    expect(resolveByteRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(resolveByteRange("bytes=0-", 0)).toBe("unsatisfiable");
  });

  it("ignores malformed, reversed and multiple ranges (the whole file is served)", () => {
    for (const header of ["bytes=5-1", "bytes=-", "items=0-1", "bytes=0-1,5-6", "bytes=a-b", "bytes = 0-1", "bytes=1.5-2"]) {
      expect(resolveByteRange(header, 1000), header).toBeNull();
    }
    expect(resolveByteRange(null, 1000)).toBeNull();
  });

  it("formats Content-Range with inclusive ends", () => {
    expect(contentRange({ offset: 990, length: 10 }, 1000)).toBe("bytes 990-999/1000");
  });
});
