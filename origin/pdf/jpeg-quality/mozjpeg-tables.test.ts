import { describe, expect, it } from "vitest";
import { BASELINE_MAX_STEP } from "./ijg-tables.ts";
import { MOZJPEG_DEFAULT_TABLE } from "./mozjpeg-tables.ts";
import { encodePhotoLike } from "./photo-like-fixture.ts";
import { readQuantTables } from "./read-quant-tables.ts";

describe("MOZJPEG_DEFAULT_TABLE", () => {
  it("is what sharp's mozjpeg preset writes for luma and chroma at quality 50, clamped to baseline", async () => {
    const read = readQuantTables(await encodePhotoLike({ quality: 50, mozjpeg: true }));
    const expected = MOZJPEG_DEFAULT_TABLE.map((step) => Math.min(step, BASELINE_MAX_STEP));
    expect(read?.tables.get(0)?.values).toEqual(expected);
    expect(read?.tables.get(1)?.values).toEqual(expected);
  });
});
