import { describe, expect, it } from "vitest";
import { ANNEX_K_CHROMINANCE, ANNEX_K_LUMINANCE, BASELINE_MAX_STEP, EXTENDED_MAX_STEP, ijgScaleFactor, scaleQuantTable } from "./ijg-tables.ts";
import { encodePhotoLike } from "./photo-like-fixture.ts";
import { readQuantTables } from "./read-quant-tables.ts";

describe("ijgScaleFactor", () => {
  it("follows 5000/q below 50 and 200-2q from 50", () => {
    expect(ijgScaleFactor(1)).toBe(5000);
    expect(ijgScaleFactor(10)).toBe(500);
    expect(ijgScaleFactor(33)).toBe(151);
    expect(ijgScaleFactor(50)).toBe(100);
    expect(ijgScaleFactor(75)).toBe(50);
    expect(ijgScaleFactor(100)).toBe(0);
  });
});

describe("scaleQuantTable", () => {
  it("keeps the base table at quality 50 and turns every step into 1 at quality 100", () => {
    expect(scaleQuantTable(ANNEX_K_LUMINANCE, 50, BASELINE_MAX_STEP)).toEqual(ANNEX_K_LUMINANCE);
    expect(scaleQuantTable(ANNEX_K_CHROMINANCE, 100, BASELINE_MAX_STEP)).toEqual(new Array(64).fill(1));
  });

  it("gives libjpeg's well-known quality 75 default tables", () => {
    expect(scaleQuantTable(ANNEX_K_LUMINANCE, 75, BASELINE_MAX_STEP).slice(0, 8)).toEqual([8, 6, 5, 8, 12, 20, 26, 31]);
    expect(scaleQuantTable(ANNEX_K_CHROMINANCE, 75, BASELINE_MAX_STEP).slice(0, 8)).toEqual([9, 9, 12, 24, 50, 50, 50, 50]);
  });

  it("clamps to 255 for baseline and to 32767 for 16-bit tables", () => {
    expect(scaleQuantTable(ANNEX_K_LUMINANCE, 1, BASELINE_MAX_STEP)).toEqual(new Array(64).fill(255));
    expect(scaleQuantTable(ANNEX_K_LUMINANCE, 1, EXTENDED_MAX_STEP)[0]).toBe(800);
  });
});

describe("Annex K tables", () => {
  it("are what libjpeg-turbo (sharp without mozjpeg) writes at quality 50", async () => {
    const read = readQuantTables(await encodePhotoLike({ quality: 50, mozjpeg: false }));
    expect(read?.tables.get(0)?.values).toEqual(ANNEX_K_LUMINANCE);
    expect(read?.tables.get(1)?.values).toEqual(ANNEX_K_CHROMINANCE);
  });
});
