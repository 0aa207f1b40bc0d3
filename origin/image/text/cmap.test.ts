// The cmap reader against the shipped fonts: its two subtable readers agree on every character of
// the Basic Multilingual Plane (each font holds both tables), and it knows what each font draws.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readCoverage } from "./cmap.ts";
import { overlayFont } from "./fonts.ts";

describe("readCoverage", () => {
  it.each(["sans", "serif", "mono"] as const)("reads the same coverage of the BMP from format 4 and format 12 in %s", (name) => {
    const bytes = readFileSync(overlayFont(name).path);
    const [bmp, full] = [readCoverage(bytes, [4]), readCoverage(bytes, [12])];
    let covered = 0;
    for (let codepoint = 0; codepoint < 0xffff; codepoint++) {
      if (bmp.has(codepoint) !== full.has(codepoint)) throw new Error(`U+${codepoint.toString(16)}: format 4 ${bmp.has(codepoint)}, format 12 ${full.has(codepoint)}`);
      if (full.has(codepoint)) covered++;
    }
    // Thousands of characters, not a misread handful.
    expect(covered).toBeGreaterThan(2500);
  });

  it("knows which scripts each font draws", () => {
    const has = (name: "sans" | "serif" | "mono", character: string) => overlayFont(name).coverage.has(character.codePointAt(0)!);
    expect(["A", "é", "Ж", "Ω", "ש", "ب"].map((character) => has("sans", character))).toEqual([true, true, true, true, true, true]);
    expect(["A", "Ж", "ש", "ب"].map((character) => has("serif", character))).toEqual([true, true, false, false]);
    expect(["A", "Ж", "ש", "ب"].map((character) => has("mono", character))).toEqual([true, true, false, true]);
    // Beyond the BMP, only format 12 says what a font draws.
    expect(has("sans", "😀")).toBe(true);
    expect(["一", "\u{10FFFF}"].some((character) => has("sans", character))).toBe(false);
  });

  it("refuses a font without the subtable asked for", () => {
    expect(() => readCoverage(readFileSync(overlayFont("sans").path), [])).toThrow("no Unicode cmap subtable");
  });
});
