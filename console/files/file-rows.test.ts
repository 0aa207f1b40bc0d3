import { describe, expect, it } from "vitest";
import { expiryInputValue, fileListPath, keptUntil } from "./file-rows.ts";

describe("file rows", () => {
  it("asks for the first page without a cursor and passes a cursor back escaped", () => {
    expect(fileListPath(20, null)).toBe("/v1/files?limit=20");
    expect(fileListPath(20, "eyJ0Ijo1/+=")).toBe("/v1/files?limit=20&cursor=eyJ0Ijo1%2F%2B%3D");
  });

  it("writes a durable file as kept until deleted and an expiring one to the minute in UTC", () => {
    expect(keptUntil(null)).toBe("until deleted");
    expect(keptUntil("2026-11-27T10:05:00.000Z")).toBe("2026-11-27 10:05 UTC");
  });

  it("offers an end an hour on, in the local time a datetime-local control reads back", () => {
    const now = new Date(2026, 10, 26, 23, 30, 12);
    const value = expiryInputValue(now);
    expect(value).toBe("2026-11-27T00:30");
    expect(new Date(value).getTime()).toBe(new Date(2026, 10, 27, 0, 30).getTime());
  });
});
