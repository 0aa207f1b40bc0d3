// Excel stores dates as serial day numbers with no time zone: a cell shows the wall time its
// serial encodes. So an instant is first turned into the wall time of the workbook's zone
// (offsets from Intl, the platform's tz database), and a wall time becomes a serial directly.
import type { IsoDateTime } from "../../contracts/xlsx-request.ts";

const MS_PER_DAY = 86_400_000;
const MS_PER_HOUR = 3_600_000;
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);
// Excel counts a 29 February 1900 that never existed; serials before 1 March 1900 are one lower.
const FIRST_SERIAL_AFTER_LEAP_BUG = 61;

export interface ZonedClock {
  /** Milliseconds to add to an instant to get its wall time in the zone, read as if it were UTC. */
  offsetAt(epochMs: number): number;
}

/** The numbers in `text` in order: `11/26/2026, 14:05:09` gives 11, 26, 2026, 14, 5, 9. */
function digitRuns(text: string): number[] {
  const runs: number[] = [];
  let n = -1;
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d >= 0 && d <= 9) n = (n < 0 ? 0 : n * 10) + d;
    else if (n >= 0) {
      runs.push(n);
      n = -1;
    }
  }
  if (n >= 0) runs.push(n);
  return runs;
}

export function createZonedClock(timeZone: string): ZonedClock {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  // `format` and reading its digits costs a quarter of `formatToParts`, which builds an object per field.
  const exactOffset = (epochMs: number): number => {
    const wholeSecond = Math.floor(epochMs / 1000) * 1000;
    const [month, day, year, hour, minute, second] = digitRuns(format.format(wholeSecond));
    return Date.UTC(year!, month! - 1, day, hour, minute, second) - wholeSecond;
  };
  // Offsets change at most once an hour, so an hour that starts with the offset the next hour
  // starts with has that offset throughout. Each hour's start is asked once, so a run of
  // distinct hours costs one lookup per hour; the hour before a change asks its last millisecond.
  const startOffsets = new Map<number, number>();
  const startOffset = (hour: number): number => {
    let offset = startOffsets.get(hour);
    if (offset === undefined) {
      offset = exactOffset(hour * MS_PER_HOUR);
      startOffsets.set(hour, offset);
    }
    return offset;
  };
  const hourOffsets = new Map<number, number>();
  return {
    offsetAt(epochMs) {
      const hour = Math.floor(epochMs / MS_PER_HOUR);
      const cached = hourOffsets.get(hour);
      if (cached !== undefined) return cached;
      const start = startOffset(hour);
      if (start !== startOffset(hour + 1) && start !== exactOffset((hour + 1) * MS_PER_HOUR - 1)) return exactOffset(epochMs);
      hourOffsets.set(hour, start);
      return start;
    },
  };
}

/**
 * The serial Excel displays as this value's wall time (1900 date system): a value with an
 * offset is an instant and shows as the wall time in the clock's zone; one without is
 * already a wall time.
 */
export function excelSerial(value: IsoDateTime, clock: ZonedClock): number {
  let wallMs = Date.UTC(value.year, value.month - 1, value.day, value.hour, value.minute, value.second, value.millisecond);
  if (value.offsetMinutes !== null) {
    const instant = wallMs - value.offsetMinutes * 60_000;
    wallMs = instant + clock.offsetAt(instant);
  }
  const serial = (wallMs - SERIAL_EPOCH_MS) / MS_PER_DAY;
  return serial < FIRST_SERIAL_AFTER_LEAP_BUG ? serial - 1 : serial;
}
