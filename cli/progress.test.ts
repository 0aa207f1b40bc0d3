import { describe, expect, it } from "vitest";
import { Progress } from "./progress.ts";

function terminal() {
  const writes: string[] = [];
  return { stream: { isTTY: true, columns: 120, write: (text: string) => writes.push(text) }, writes };
}

/** How many of the bar's 24 cells the last redraw filled. */
function filledCells(writes: string[]): number {
  const bar = /\[([#-]{24})\]/.exec(writes.at(-1)!)![1]!;
  return bar.split("").filter((cell) => cell === "#").length;
}

describe("Progress", () => {
  it("fills the bar with the running jobs' reported progress, not only finished items", () => {
    const { stream, writes } = terminal();
    const progress = new Progress(stream, 2);
    expect(filledCells(writes)).toBe(0);
    progress.update("a.jpg", 1, 2);
    expect(filledCells(writes)).toBe(6);
    expect(writes.at(-1)).toContain(" 0/2");
    progress.update("b.jpg", 2, 2);
    expect(filledCells(writes)).toBe(18);
    progress.finish({ name: "b.jpg", ok: true, inputBytes: 100, outputBytes: 40, detail: "" });
    expect(filledCells(writes)).toBe(18);
    expect(writes.at(-1)).toContain(" 1/2");
    progress.finish({ name: "a.jpg", ok: true, inputBytes: 100, outputBytes: 40, detail: "" });
    expect(filledCells(writes)).toBe(24);
  });
});
