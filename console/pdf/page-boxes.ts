// analyze's placements as boxes on page pictures: each page with every image drawn on it, the box
// as shares of the page's width and height (so it fits a picture of any size), and its DPI band.
import type { PdfAnalysis } from "../api/types.ts";
import { dpiBand, type DpiBand } from "./dpi-band.ts";

export interface PageBox {
  objectNumber: number;
  /** Percent of the page's width or height, from its top-left corner. */
  left: number;
  top: number;
  width: number;
  height: number;
  dpi: number;
  band: DpiBand;
}

export interface PageView {
  /** From 1. */
  page: number;
  widthPt: number;
  heightPt: number;
  boxes: PageBox[];
}

/** Pages 1..`count` (at most the document's), each with the boxes of the images drawn on it, in the order analyze lists them. */
export function pageViews(analysis: Pick<PdfAnalysis, "composition" | "images">, count: number): PageView[] {
  const views = analysis.composition.page_sizes_pt.slice(0, count).map((size, index): PageView => ({ page: index + 1, widthPt: size.width, heightPt: size.height, boxes: [] }));
  for (const image of analysis.images) {
    for (const placement of image.placements) {
      const view = views[placement.page - 1];
      if (view === undefined) continue;
      const { x, y, width, height } = placement.rect_pt;
      view.boxes.push({
        objectNumber: image.object_number,
        left: (x / view.widthPt) * 100,
        top: (y / view.heightPt) * 100,
        width: (width / view.widthPt) * 100,
        height: (height / view.heightPt) * 100,
        dpi: placement.effective_dpi,
        band: dpiBand(placement.effective_dpi),
      });
    }
  }
  return views;
}

/** What a page's caption says of its images: how many, and the lowest DPI among them. */
export function pageSummary(view: PageView): string {
  if (view.boxes.length === 0) return `Page ${view.page}: no images`;
  const lowest = Math.min(...view.boxes.map((box) => box.dpi));
  return `Page ${view.page}: ${view.boxes.length} ${view.boxes.length === 1 ? "image" : "images"}, lowest ${Math.round(lowest)} dpi`;
}
