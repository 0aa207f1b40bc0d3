import { describe, expect, it } from "vitest";
import { parseIsoDateTime } from "../../contracts/xlsx-request.ts";
import { createZonedClock, excelSerial } from "./zoned-date.ts";

const utc = createZonedClock("UTC");

function serialOf(text: string, clock = utc): number {
  const parsed = parseIsoDateTime(text, false);
  if (!parsed) throw new Error(`bad test input ${text}`);
  return excelSerial(parsed, clock);
}

// A wall time as Excel's day count, by the definition: days since 1899-12-30.
function wallSerial(year: number, month: number, day: number, hour = 0, minute = 0): number {
  return (Date.UTC(year, month - 1, day, hour, minute) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

describe("excelSerial", () => {
  it("matches Excel's published serials, including the 1900 leap-year bug", () => {
    expect(serialOf("1900-01-01")).toBe(1);
    expect(serialOf("1900-02-28")).toBe(59);
    expect(serialOf("1900-03-01")).toBe(61);
    expect(serialOf("1970-01-01")).toBe(25_569);
    expect(serialOf("2000-01-01")).toBe(36_526);
    expect(serialOf("2000-01-01T18:00")).toBe(36_526.75);
  });

  it("keeps wall times as given, whatever the zone", () => {
    const tokyo = createZonedClock("Asia/Tokyo");
    expect(serialOf("2026-07-01T10:30", tokyo)).toBe(wallSerial(2026, 7, 1, 10, 30));
  });

  it("shows instants as the wall time of the workbook zone, across DST", () => {
    const berlin = createZonedClock("Europe/Berlin");
    expect(serialOf("2026-01-15T12:00:00Z", berlin)).toBe(wallSerial(2026, 1, 15, 13));
    expect(serialOf("2026-07-15T12:00:00Z", berlin)).toBe(wallSerial(2026, 7, 15, 14));
    expect(serialOf("2026-07-15T12:00:00+02:00", berlin)).toBe(wallSerial(2026, 7, 15, 12));
    // Spring forward at 01:00 UTC on 29 March 2026: 01:59:59 CET is followed by 03:00 CEST.
    expect(serialOf("2026-03-29T00:59:00Z", berlin)).toBe(wallSerial(2026, 3, 29, 1, 59));
    expect(serialOf("2026-03-29T01:00:00Z", berlin)).toBe(wallSerial(2026, 3, 29, 3, 0));
    // Fall back at 01:00 UTC on 25 October 2026: 02:30 happens twice.
    expect(serialOf("2026-10-25T00:30:00Z", berlin)).toBe(wallSerial(2026, 10, 25, 2, 30));
    expect(serialOf("2026-10-25T01:30:00Z", berlin)).toBe(wallSerial(2026, 10, 25, 2, 30));
  });

  it("handles fractional offsets and the southern hemisphere", () => {
    expect(serialOf("2026-06-01T00:00:00Z", createZonedClock("Asia/Kathmandu"))).toBe(wallSerial(2026, 6, 1, 5, 45));
    expect(serialOf("2026-01-10T12:00:00Z", createZonedClock("America/St_Johns"))).toBe(wallSerial(2026, 1, 10, 8, 30));
    // Lord Howe Island shifts by 30 minutes: +11:00 in January, +10:30 in July.
    const lordHowe = createZonedClock("Australia/Lord_Howe");
    expect(serialOf("2026-01-10T00:00:00Z", lordHowe)).toBe(wallSerial(2026, 1, 10, 11));
    expect(serialOf("2026-07-10T00:00:00Z", lordHowe)).toBe(wallSerial(2026, 7, 10, 10, 30));
  });

  it("gives the same answer from the hour cache as from a fresh clock", () => {
    const cached = createZonedClock("America/New_York");
    const instants = ["2026-03-08T06:59:00Z", "2026-03-08T07:00:00Z", "2026-03-08T07:30:00Z", "2026-11-01T05:59:00Z", "2026-11-01T06:00:00Z"];
    const first = instants.map((t) => serialOf(t, cached));
    const again = instants.map((t) => serialOf(t, cached));
    const fresh = instants.map((t) => serialOf(t, createZonedClock("America/New_York")));
    expect(again).toEqual(first);
    expect(fresh).toEqual(first);
    expect(first).toEqual([wallSerial(2026, 3, 8, 1, 59), wallSerial(2026, 3, 8, 3), wallSerial(2026, 3, 8, 3, 30), wallSerial(2026, 11, 1, 1, 59), wallSerial(2026, 11, 1, 1)]);
  });

  it("agrees with the zone's own wall clock minute by minute around each change, for distinct and repeated hours", () => {
    const zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia"];
    const days = [Date.UTC(2026, 2, 28), Date.UTC(2026, 3, 4), Date.UTC(2026, 9, 24), Date.UTC(2026, 10, 1), Date.UTC(2011, 11, 29)];
    for (const timeZone of zones) {
      const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
      const wallOffset = (ms: number): number => {
        const field = Object.fromEntries(parts.formatToParts(ms).map((part) => [part.type, Number(part.value)]));
        return Date.UTC(field.year!, field.month! - 1, field.day, field.hour, field.minute, field.second) - ms;
      };
      const clock = createZonedClock(timeZone);
      for (const day of days) {
        for (let ms = day; ms < day + 3 * 86_400_000; ms += 7 * 60_000) expect(clock.offsetAt(ms), `${timeZone} at ${new Date(ms).toISOString()}`).toBe(wallOffset(ms));
      }
    }
  });
});
