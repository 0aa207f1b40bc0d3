import { describe, expect, it } from "vitest";
import { profileRows } from "./profile-rows.ts";

const projection = (estimated_bytes: number, quality_risk: "none" | "low" | "medium" | "high") => ({
  estimated_bytes,
  savings_bytes: 1000 - estimated_bytes,
  savings_ratio: (1000 - estimated_bytes) / 1000,
  quality_risk,
  images_rewritten: 1,
});

describe("profileRows", () => {
  it("orders profiles from smallest intent to most faithful and scales bars against the original", () => {
    const { rows, originalShare } = profileRows({
      stats: { original_bytes: 1000 },
      projection: { prepress: projection(900, "none"), screen: projection(100, "high"), email: projection(200, "medium"), ebook: projection(400, "low"), print: projection(800, "none") },
    });
    expect(rows.map((row) => [row.profile, row.share, row.risk])).toEqual([
      ["screen", 0.1, "high"],
      ["email", 0.2, "medium"],
      ["ebook", 0.4, "low"],
      ["print", 0.8, "none"],
      ["prepress", 0.9, "none"],
    ]);
    expect(originalShare).toBe(1);
  });

  it("scales against a projection larger than the original, so no bar overflows", () => {
    const { rows, originalShare } = profileRows({
      stats: { original_bytes: 1000 },
      projection: { screen: projection(500, "low"), email: projection(500, "low"), ebook: projection(1000, "none"), print: projection(1250, "none"), prepress: projection(1250, "none") },
    });
    expect(originalShare).toBe(0.8);
    expect(Math.max(...rows.map((row) => row.share))).toBe(1);
  });
});
