import { describe, expect, it } from "vitest";
import { daysEnding, usageSeries } from "./usage-series.ts";

describe("usage series", () => {
  it("lists the days of a period across a month end, oldest first", () => {
    expect(daysEnding("2026-11-02", 4)).toEqual(["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02"]);
  });

  it("places each row on its day, keeps empty days, orders operations and finds the tallest stack", () => {
    const rows = [
      { day: "2026-10-31", operation: "pdf.compress", count: 1, micros: 20_000 },
      { day: "2026-10-31", operation: "image.optimize", count: 3, micros: 2_400 },
      { day: "2026-11-02", operation: "image.optimize", count: 5, micros: 4_000 },
      { day: "2026-11-02", operation: "storage.daily", count: 1, micros: 10 },
      { day: "2026-09-01", operation: "xlsx.generate", count: 9, micros: 9 },
    ];
    const series = usageSeries(rows, daysEnding("2026-11-02", 3), ["image.optimize", "pdf.compress", "xlsx.generate"]);
    expect(series.days).toEqual(["2026-10-31", "2026-11-01", "2026-11-02"]);
    expect(series.operations).toEqual(["image.optimize", "pdf.compress", "storage.daily"]);
    expect(series.values.get("2026-11-01")).toEqual({});
    expect(series.values.get("2026-10-31")).toEqual({ "pdf.compress": { count: 1, micros: 20_000 }, "image.optimize": { count: 3, micros: 2_400 } });
    expect(series.max).toEqual({ count: 6, micros: 22_400 });
  });
});
