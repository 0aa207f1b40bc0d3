// What must survive compression unchanged: the pages and their sizes, the links,
// the form widgets and the form fields. Compress compares input and reopened output.
import type * as mupdf from "mupdf";
import { nameOf } from "./pdf-objects.ts";
import { forEachFormField } from "./signatures.ts";

export interface PageShape {
  width: number;
  height: number;
  links: number;
  widgets: number;
}

export interface DocumentShape {
  pages: PageShape[];
  fieldNames: string[];
}

const SIZE_TOLERANCE_PT = 0.01;

export function documentShape(doc: mupdf.PDFDocument): DocumentShape {
  const pages: PageShape[] = [];
  const count = doc.countPages();
  for (let index = 0; index < count; index++) {
    const page = doc.loadPage(index);
    try {
      const [x0, y0, x1, y1] = page.getBounds();
      let links = 0;
      let widgets = 0;
      const annots = page.getObject().get("Annots");
      if (annots.isArray()) {
        annots.forEach((annot) => {
          const subtype = nameOf(annot.get("Subtype"));
          if (subtype === "Link") links++;
          if (subtype === "Widget") widgets++;
        });
      }
      pages.push({ width: x1 - x0, height: y1 - y0, links, widgets });
    } finally {
      page.destroy();
    }
  }
  const fieldNames: string[] = [];
  forEachFormField(doc, (_, name) => fieldNames.push(name));
  return { pages, fieldNames };
}

/** The first difference between two shapes, or null when the output keeps the input's shape. */
export function shapeDifference(input: DocumentShape, output: DocumentShape): string | null {
  if (input.pages.length !== output.pages.length) return `page count changed from ${input.pages.length} to ${output.pages.length}`;
  for (const [index, before] of input.pages.entries()) {
    const after = output.pages[index];
    if (after === undefined) return `page ${index + 1} is missing`;
    if (Math.abs(before.width - after.width) > SIZE_TOLERANCE_PT || Math.abs(before.height - after.height) > SIZE_TOLERANCE_PT) {
      return `page ${index + 1} size changed`;
    }
    if (before.links !== after.links) return `page ${index + 1} lost links`;
    if (before.widgets !== after.widgets) return `page ${index + 1} lost form widgets`;
  }
  const outputFields = new Set(output.fieldNames);
  const lost = input.fieldNames.find((name) => !outputFields.has(name));
  return lost === undefined ? null : `form field "${lost}" was lost`;
}
