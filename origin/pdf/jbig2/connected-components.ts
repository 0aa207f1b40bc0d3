// 8-connected components of the black pixels, found over horizontal runs with a
// union-find, so a page costs one pass over its pixels plus work per run.
import type { Bitmap } from "./bitmap.ts";

export interface Component {
  /** Top-left corner of the bounding box on the page. */
  x: number;
  y: number;
  /** The component's own pixels inside its bounding box; other components' pixels there are 0. */
  bitmap: Bitmap;
}

class Runs {
  start = new Int32Array(1024);
  end = new Int32Array(1024);
  row = new Int32Array(1024);
  parent = new Int32Array(1024);
  count = 0;

  add(start: number, end: number, row: number): void {
    if (this.count === this.start.length) {
      for (const key of ["start", "end", "row", "parent"] as const) {
        const grown = new Int32Array(this.count * 2);
        grown.set(this[key]);
        this[key] = grown;
      }
    }
    this.start[this.count] = start;
    this.end[this.count] = end;
    this.row[this.count] = row;
    this.parent[this.count] = this.count;
    this.count++;
  }

  root(run: number): number {
    let current = run;
    while (this.parent[current] !== current) {
      const parent = this.parent[current] as number;
      this.parent[current] = this.parent[parent] as number;
      current = parent;
    }
    return current;
  }

  union(a: number, b: number): void {
    const rootA = this.root(a);
    const rootB = this.root(b);
    if (rootA < rootB) this.parent[rootB] = rootA;
    else if (rootB < rootA) this.parent[rootA] = rootB;
  }
}

function findRuns({ width, height, pixels }: Bitmap): Runs {
  const runs = new Runs();
  let previousFirst = 0;
  let previousEnd = 0;
  for (let y = 0; y < height; y++) {
    const first = runs.count;
    const offset = y * width;
    let x = 0;
    while (x < width) {
      if (pixels[offset + x] === 0) {
        x++;
        continue;
      }
      const start = x;
      while (x < width && pixels[offset + x] === 1) x++;
      runs.add(start, x - 1, y);
    }
    // Runs of this row touch runs of the row above that overlap them, diagonals included.
    let above = previousFirst;
    for (let run = first; run < runs.count; run++) {
      const start = runs.start[run] as number;
      const end = runs.end[run] as number;
      while (above < previousEnd && (runs.end[above] as number) < start - 1) above++;
      for (let candidate = above; candidate < previousEnd && (runs.start[candidate] as number) <= end + 1; candidate++) runs.union(run, candidate);
    }
    previousFirst = first;
    previousEnd = runs.count;
  }
  return runs;
}

/** Components in the order of their first pixel (top to bottom, left to right). */
export function findComponents(page: Bitmap): Component[] {
  const runs = findRuns(page);
  const componentOf = new Int32Array(runs.count).fill(-1);
  const boxes: { minX: number; maxX: number; minY: number; maxY: number }[] = [];
  for (let run = 0; run < runs.count; run++) {
    const root = runs.root(run);
    let index = componentOf[root] as number;
    if (index < 0) {
      index = boxes.length;
      componentOf[root] = index;
      boxes.push({ minX: runs.start[run] as number, maxX: runs.end[run] as number, minY: runs.row[run] as number, maxY: runs.row[run] as number });
    }
    componentOf[run] = index;
    const box = boxes[index] as (typeof boxes)[number];
    box.minX = Math.min(box.minX, runs.start[run] as number);
    box.maxX = Math.max(box.maxX, runs.end[run] as number);
    box.maxY = runs.row[run] as number;
  }
  const components = boxes.map((box): Component => {
    const width = box.maxX - box.minX + 1;
    const height = box.maxY - box.minY + 1;
    return { x: box.minX, y: box.minY, bitmap: { width, height, pixels: new Uint8Array(width * height) } };
  });
  for (let run = 0; run < runs.count; run++) {
    const component = components[componentOf[run] as number] as Component;
    const { bitmap } = component;
    const rowOffset = ((runs.row[run] as number) - component.y) * bitmap.width - component.x;
    bitmap.pixels.fill(1, rowOffset + (runs.start[run] as number), rowOffset + (runs.end[run] as number) + 1);
  }
  return components;
}
