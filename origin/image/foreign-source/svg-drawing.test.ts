import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { encodeOptionsHeader, ORIGIN_ACCOUNT_HEADER, ORIGIN_OPTIONS_HEADER } from "../../../contracts/origin/framing.ts";
import { originHealthSchema } from "../../../contracts/origin/health.ts";
import { SVG_FILTER_DRAWING_BUDGET } from "../../../contracts/limits/drawing.ts";
import { ORIGIN_DEADLINES } from "../../../contracts/limits/deadlines.ts";
import { createOriginApp } from "../../app.ts";
import { svgDrawingLoad, svgToPng } from "./svg.ts";
import { blurredSvg } from "./test-support/blurred-svg.ts";

const MAX_PIXELS = 100_000_000;
// A deadline of about 2.7 s: well past a drawing process's start (about 0.3 s, five times that on
// a loaded 2-core machine) and well before the costly drawing below ends (about 5 s quiet).
const DEADLINE_SCALE = 0.1;

describe("drawing an SVG", () => {
  it("refuses filters whose drawing costs more than the budget as drawing_too_complex, before drawing", async () => {
    const hostile = blurredSvg(6, 8_000);
    expect(hostile.byteLength).toBeLessThan(2_048);
    const refused = await svgToPng(hostile, {}, MAX_PIXELS).catch((error: unknown) => error);
    expect(refused).toMatchObject({ slug: "drawing_too_complex", status: 422, extensions: { limit: SVG_FILTER_DRAWING_BUDGET } });
  });

  it("draws a filter within the budget", async () => {
    const png = await svgToPng(blurredSvg(1, 8_000), { width: 200 }, MAX_PIXELS);
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height]).toEqual([200, 200]);
    const { data } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    // The middle of a blurred full-canvas rectangle keeps its colour: the filter really ran.
    const middle = (100 * 200 + 100) * 3;
    expect(data[middle + 1]).toBeGreaterThan(100);
  });

  it("stops a drawing at its call's deadline: its compute slot and its process are free at once", async () => {
    const app = createOriginApp({ secret: null, deadlineScale: DEADLINE_SCALE });
    const killedBefore = svgDrawingLoad().timedOut;
    // Just under the budget: seconds of librsvg, past the deadline however fast the machine.
    const costly = blurredSvg(1, 2_700);
    const deadlineMs = ORIGIN_DEADLINES["/image/process"].baseMs * DEADLINE_SCALE;
    const asked = Date.now();
    const res = await app.request("/image/process", {
      method: "POST",
      body: new Uint8Array(costly),
      headers: { [ORIGIN_OPTIONS_HEADER]: encodeOptionsHeader({ format: "png" }), [ORIGIN_ACCOUNT_HEADER]: "costly" },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { type: string }).type).toMatch(/processing_timeout$/);
    const health = originHealthSchema.parse(await (await app.request("/healthz")).json());
    expect(health.pools.compute).toMatchObject({ busy: 0, timed_out: 1 });
    // The process is killed by its own timer for the same deadline, a moment after the answer (the
    // wait is bounded so a process that is never killed fails here rather than hangs).
    while (svgDrawingLoad().busy > 0 && Date.now() - asked < deadlineMs + 30_000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(svgDrawingLoad()).toMatchObject({ busy: 0, timedOut: killedBefore + 1 });
  });
});
