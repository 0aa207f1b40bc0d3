import { describe, expect, it } from "vitest";
import { inChunks } from "./in-chunks.ts";

describe("inChunks", () => {
  it("keeps every item in order, at most `size` a chunk", () => {
    expect(inChunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inChunks([1, 2], 2)).toEqual([[1, 2]]);
    expect(inChunks([], 3)).toEqual([]);
  });
});
