// SVG child process entry: draws one SVG at a time (svg-drawing.ts) and answers with its
// outcome. The pool in svg.ts kills the process at the call's deadline; when the origin goes,
// the IPC channel closes and the process ends with it.
import { outcomeOf, type JobOutcome } from "../../worker-pool/job-outcome.ts";
import type { RasterTarget } from "./raster-target.ts";
import { drawSvg } from "./svg-drawing.ts";

export interface SvgRequest {
  id: number;
  svg: Uint8Array;
  target: RasterTarget;
  maxPixels: number;
}

export interface SvgReply {
  id: number;
  outcome: JobOutcome<Uint8Array>;
}

async function answer(request: SvgRequest): Promise<void> {
  const reply: SvgReply = { id: request.id, outcome: await outcomeOf(() => drawSvg(request.svg, request.target, request.maxPixels)) };
  process.send?.(reply);
}

process.on("message", (request: SvgRequest) => void answer(request));
process.on("disconnect", () => process.exit(0));
