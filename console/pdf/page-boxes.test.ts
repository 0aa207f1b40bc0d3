import { describe, expect, it } from "vitest";
import { pageSummary, pageViews } from "./page-boxes.ts";

const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

const analysis = {
  composition: { page_sizes_pt: [{ width: 600, height: 800 }, { width: 800, height: 600 }, { width: 600, height: 800 }] } as never,
  images: [
    { object_number: 7, placements: [{ page: 1, rect_pt: rect(60, 80, 300, 200), effective_dpi: 300 }, { page: 2, rect_pt: rect(0, 0, 800, 600), effective_dpi: 96.4 }] },
    { object_number: 9, placements: [{ page: 1, rect_pt: rect(0, 400, 600, 400), effective_dpi: 50 }] },
  ] as never,
};

describe("pageViews", () => {
  it("puts each placement on its page as shares of that page's size, with its band", () => {
    const [first, second, third] = pageViews(analysis, 3);
    expect(first?.boxes.map(({ band, ...box }) => [box, band.id])).toEqual([
      [{ objectNumber: 7, left: 10, top: 10, width: 50, height: 25, dpi: 300 }, "print"],
      [{ objectNumber: 9, left: 0, top: 50, width: 100, height: 50, dpi: 50 }, "soft"],
    ]);
    expect(second?.boxes.map((box) => [box.left, box.top, box.width, box.height, box.band.id])).toEqual([[0, 0, 100, 100, "screen"]]);
    expect(third?.boxes).toEqual([]);
  });

  it("shows only the pages asked for, and skips placements on the others", () => {
    const views = pageViews(analysis, 1);
    expect(views.map((view) => view.page)).toEqual([1]);
    expect(views[0]?.boxes).toHaveLength(2);
  });

  it("sums a page up in words: how many images and the lowest DPI", () => {
    expect(pageViews(analysis, 3).map(pageSummary)).toEqual(["Page 1: 2 images, lowest 50 dpi", "Page 2: 1 image, lowest 96 dpi", "Page 3: no images"]);
  });
});
