// `npm start` is where a newcomer meets the project: a warning there reads as "broken". What it
// prints must be about the developer's own setup or nothing (the global setup starts the pair
// exactly as `npm start` does and keeps what it printed).
import { expect, inject, it } from "vitest";

it("starts with no warning that is not about the developer's own setup", () => {
  const log = inject("startLog");
  expect(log).toContain("PixelPress is running");
  const warnings = log.split("\n").filter((line) => /warn|durable ?object|experimental/i.test(line));
  expect(warnings).toEqual([]);
});
